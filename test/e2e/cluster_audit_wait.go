//go:build e2e

package e2e

import (
	"context"
	"testing"
	"time"

	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// WaitAuditClean waits until AuditCluster finds nothing and returns the clean audit and
// how long that took; on timeout it fails the test with the last findings.
func WaitAuditClean(t testing.TB, nets versioned.Interface, timeout time.Duration, clusterID string, namespaces ...string) (ClusterAudit, time.Duration) {
	t.Helper()
	return waitAudit(t, nets, clusterID, namespaces, func(start, _ time.Time) (bool, string) {
		return time.Since(start) > timeout, "within " + timeout.String()
	})
}

// WaitAuditConverging waits until AuditCluster finds nothing, for as long as the findings
// keep shrinking: it fails the test when their number has not reached a new low for
// stall. A slow machine then only makes the wait longer, while a controller that stopped
// making progress still fails; the wait is bounded, since each new low is lower.
func WaitAuditConverging(t testing.TB, nets versioned.Interface, stall time.Duration, clusterID string, namespaces ...string) (ClusterAudit, time.Duration) {
	t.Helper()
	return waitAudit(t, nets, clusterID, namespaces, func(_, lastLow time.Time) (bool, string) {
		return time.Since(lastLow) > stall, "with no fewer findings for " + stall.String()
	})
}

// waitAudit audits every second until the audit is clean or giveUp, given when the wait
// began and when the findings last reached a new low, says to stop (with why).
func waitAudit(t testing.TB, nets versioned.Interface, clusterID string, namespaces []string,
	giveUp func(start, lastLow time.Time) (bool, string)) (ClusterAudit, time.Duration) {
	t.Helper()
	start, lastLow, low := time.Now(), time.Now(), -1
	var last ClusterAudit
	var lastErr error
	for {
		a, err := AuditCluster(context.Background(), nets, clusterID, namespaces...)
		if err == nil {
			last, lastErr = a, a.Err()
			if lastErr == nil {
				return a, time.Since(start)
			}
			if n := a.Problems(); low < 0 || n < low {
				low, lastLow = n, time.Now()
			}
		} else {
			lastErr = err
		}
		if stop, why := giveUp(start, lastLow); stop {
			t.Fatalf("Neutron did not converge for cluster %s %s (waited %s): %v",
				clusterID, why, time.Since(start).Round(time.Second), lastErr)
			return last, time.Since(start)
		}
		time.Sleep(time.Second)
	}
}
