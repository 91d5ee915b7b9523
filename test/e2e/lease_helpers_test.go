//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// controllerIdentity is the leader election identity pkg/leaderelect gives the process pid
// on this host.
func controllerIdentity(t testing.TB, pid int) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatalf("hostname: %v", err)
	}
	return fmt.Sprintf("%s_%d", host, pid)
}

// leaseHolder returns the holderIdentity of a Lease ("" when released); found is false
// when the Lease does not exist yet.
func leaseHolder(t testing.TB, ns, name string) (holder string, found bool, err error) {
	t.Helper()
	kube, _ := Clients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lease, err := kube.CoordinationV1().Leases(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil || lease.Spec.HolderIdentity == nil {
		return "", err == nil, err
	}
	return *lease.Spec.HolderIdentity, true, nil
}

// waitLeaseHolder polls the Lease every 100 ms until its holder is want and returns how
// long that took.
func waitLeaseHolder(t testing.TB, ns, name, want string, timeout time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	Eventually(t, timeout, 100*time.Millisecond, fmt.Sprintf("Lease %s/%s held by %q", ns, name, want), func() error {
		holder, found, err := leaseHolder(t, ns, name)
		switch {
		case err != nil:
			return err
		case !found:
			return fmt.Errorf("no Lease yet")
		case holder != want:
			return fmt.Errorf("holderIdentity is %q", holder)
		}
		return nil
	})
	return time.Since(start)
}

// waitLeader waits until a or b holds the Lease and returns that one and the other.
func waitLeader(t testing.TB, ns, lease string, timeout time.Duration, a, b *Controller) (leader, standby *Controller) {
	t.Helper()
	byIdentity := map[string]*Controller{controllerIdentity(t, a.PID()): a, controllerIdentity(t, b.PID()): b}
	Eventually(t, timeout, 100*time.Millisecond, "one of two controllers to hold the Lease", func() error {
		holder, _, err := leaseHolder(t, ns, lease)
		if err == nil && byIdentity[holder] == nil {
			err = fmt.Errorf("holderIdentity %q is neither pid %d nor pid %d", holder, a.PID(), b.PID())
		}
		leader = byIdentity[holder]
		return err
	})
	standby = a
	if leader == a {
		standby = b
	}
	t.Logf("leader pid %d, standby pid %d", leader.PID(), standby.PID())
	return leader, standby
}
