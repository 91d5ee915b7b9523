//go:build e2e

package e2e

import (
	"context"
	"testing"
	"time"

	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// WaitAuditConverging waits until AuditCluster finds nothing and returns the clean audit
// and how long that took. It waits for as long as the findings keep shrinking: it fails
// the test when their number has not reached a new low for stall. A slow machine then
// only makes the wait longer, while a controller that stopped making progress still
// fails; the wait is bounded, since each new low is lower.
func WaitAuditConverging(t testing.TB, nets versioned.Interface, stall time.Duration, clusterID string, namespaces ...string) (ClusterAudit, time.Duration) {
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
		if time.Since(lastLow) > stall {
			t.Fatalf("Neutron did not converge for cluster %s: no fewer findings for %s (waited %s): %v",
				clusterID, stall, time.Since(start).Round(time.Second), lastErr)
			return last, time.Since(start)
		}
		time.Sleep(time.Second)
	}
}
