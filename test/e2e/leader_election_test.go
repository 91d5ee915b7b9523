//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// TestLeaderElection runs two controllers of one cluster ID on one Lease (short timings):
//   - exactly one leads (its log and the Lease's holderIdentity agree) and reconciles; the
//     standby does nothing but stand by (and is ready);
//   - SIGKILL of the leader: the standby takes over once the lease expires (not before,
//     and within the lease duration plus a margin) and reconciles a new Network;
//   - SIGTERM of the new leader: it releases the Lease (holderIdentity "") at once, and a
//     third process started afterwards acquires it at once, far under the lease duration;
//   - no Neutron network or subnet was ever created twice.
func TestLeaderElection(t *testing.T) {
	t.Parallel()
	lt := LeaseTimings{Duration: 6 * time.Second, RenewDeadline: 4 * time.Second, RetryPeriod: time.Second}
	// Takeover after a kill: the standby waits a full lease duration from the last renewal
	// it observed and then tries every retry period (with up to 1.2 jitter).
	const takeoverMargin = 4 * time.Second
	leaseDuration, retryPeriod := lt.Duration, lt.RetryPeriod
	ns, lease, opts := CompetingControllers(t, lt)
	clusterID := opts.ClusterID
	a := StartController(t, opts).WaitConnected()
	b := StartController(t, opts).WaitConnected()

	// Exactly one leads.
	leader, standby := waitLeader(t, ns, lease, 30*time.Second, a, b)
	Eventually(t, 10*time.Second, 100*time.Millisecond, "the leader to log Became leader and the standby to stand by", func() error {
		if !strings.Contains(leader.Logs(), "Became leader") {
			return fmt.Errorf("leader has not logged \"Became leader\"")
		}
		if !strings.Contains(standby.Logs(), "Another replica leads; standing by") {
			return fmt.Errorf("standby has not logged \"Another replica leads; standing by\"")
		}
		return nil
	})
	standby.WaitReadyz(30 * time.Second) // a warm standby is ready

	// Two Networks, reconciled by the leader only.
	first := []string{"le-1", "le-2"}
	nets := map[string]*samplecrdv1.Network{}
	for i, name := range first {
		CreateNetwork(t, ns, name, fmt.Sprintf("10.74.%d.0/24", i), "")
	}
	for _, name := range first {
		WaitReady(t, ns, name, 60*time.Second)
		nets[name] = waitOwned(t, clusterID, ns, name)
	}
	Consistently(t, 2*time.Second, 250*time.Millisecond, "one leader", func() error {
		holder, _, err := leaseHolder(t, ns, lease)
		if err != nil {
			return err
		}
		if holder != controllerIdentity(t, leader.PID()) {
			return fmt.Errorf("holderIdentity changed to %q", holder)
		}
		return nil
	})
	for _, name := range first {
		if CountLines(leader.Logs(), "Created Neutron network", ns+"/"+name) != 1 {
			t.Errorf("leader did not log creating the Neutron network of %s/%s exactly once", ns, name)
		}
	}
	for _, s := range []string{"Became leader", "Starting workers", "Created Neutron network", "Created Neutron subnet"} {
		if strings.Contains(standby.Logs(), s) {
			t.Errorf("the standby logged %q: it must not reconcile", s)
		}
	}

	// SIGKILL the leader: the standby takes over once the lease expires.
	killed := time.Now()
	leader.Kill()
	waitLeaseHolder(t, ns, lease, controllerIdentity(t, standby.PID()), leaseDuration+takeoverMargin+2*time.Second)
	takeover := time.Since(killed)
	t.Logf("standby took over %s after the leader was killed (lease duration %s)", takeover.Round(time.Millisecond), leaseDuration)
	if takeover > leaseDuration+takeoverMargin {
		t.Errorf("takeover took %s, more than the lease duration %s + %s", takeover, leaseDuration, takeoverMargin)
	}
	if takeover < leaseDuration-2*retryPeriod-500*time.Millisecond {
		t.Errorf("takeover after only %s: the standby did not respect the lease duration %s", takeover, leaseDuration)
	}
	newLeader := standby
	Eventually(t, 10*time.Second, 100*time.Millisecond, "the new leader to log Became leader", func() error {
		if !strings.Contains(newLeader.Logs(), "Became leader") {
			return fmt.Errorf("not yet")
		}
		return nil
	})
	CreateNetwork(t, ns, "le-3", "10.74.3.0/24", "")
	WaitReady(t, ns, "le-3", 60*time.Second)
	nets["le-3"] = waitOwned(t, clusterID, ns, "le-3")
	if CountLines(newLeader.Logs(), "Created Neutron network", ns+"/le-3") != 1 {
		t.Errorf("the new leader did not log creating the Neutron network of %s/le-3 exactly once", ns)
	}
	for _, name := range first {
		if CountLines(newLeader.Logs(), "Created Neutron network", ns+"/"+name) != 0 {
			t.Errorf("the new leader created a second Neutron network for %s/%s", ns, name)
		}
	}

	// SIGTERM the new leader: it releases the Lease at once.
	sigterm := time.Now()
	if err := syscall.Kill(newLeader.PID(), syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	released := waitLeaseHolder(t, ns, lease, "", 5*time.Second)
	t.Logf("Lease released %s after SIGTERM", released.Round(time.Millisecond))
	if released > 2500*time.Millisecond {
		t.Errorf("the Lease was released %s after SIGTERM; want at once (within ~2 s)", released)
	}
	if code, err := newLeader.Wait(30 * time.Second); err != nil || code != 0 {
		t.Errorf("the leader exited with %d (%v) after SIGTERM, want 0", code, err)
	}
	if !strings.Contains(newLeader.Logs(), "Released leadership") {
		t.Errorf("the leader did not log \"Released leadership\"")
	}
	t.Logf("SIGTERM to exit: %s", time.Since(sigterm).Round(time.Millisecond))

	// A third process acquires the released Lease at once: from its "Waiting to become
	// leader" to its "Became leader" (klog timestamps) takes far less than a lease duration.
	c := StartController(t, opts).WaitConnected()
	waitLeaseHolder(t, ns, lease, controllerIdentity(t, c.PID()), leaseDuration+takeoverMargin)
	Eventually(t, 5*time.Second, 100*time.Millisecond, "the third process to log Became leader", func() error {
		if !strings.Contains(c.Logs(), "Became leader") {
			return fmt.Errorf("not yet")
		}
		return nil
	})
	acquired := logTime(t, c.Logs(), "Became leader").Sub(logTime(t, c.Logs(), "Waiting to become leader"))
	t.Logf("third process acquired the released Lease %s after it started waiting for it", acquired.Round(time.Millisecond))
	if acquired > leaseDuration/3 {
		t.Errorf("the third process needed %s to acquire a released Lease; want at once, far under the lease duration %s", acquired, leaseDuration)
	}
	CreateNetwork(t, ns, "le-4", "10.74.4.0/24", "")
	WaitReady(t, ns, "le-4", 60*time.Second)
	nets["le-4"] = waitOwned(t, clusterID, ns, "le-4")
	if CountLines(c.Logs(), "Created Neutron network", ns+"/le-4") != 1 {
		t.Errorf("the third leader did not log creating the Neutron network of %s/le-4 exactly once", ns)
	}

	// Nothing was ever created twice, and nothing leaked: the audit reads all of Neutron
	// for this cluster ID.
	_, client := Clients(t)
	if audit, err := AuditCluster(context.Background(), client, clusterID, ns); err != nil || audit.Problems() > 0 {
		t.Errorf("Neutron for cluster %s: %v %v", clusterID, err, audit.Err())
	}

	// Deleting works under the third leader.
	for name := range nets {
		DeleteNetwork(t, ns, name)
	}
	for name, n := range nets {
		WaitGone(t, ns, name, 60*time.Second)
		WaitNeutronEmpty(t, OwnerOf(clusterID, n), 30*time.Second)
	}
}

// waitOwned waits until Neutron holds exactly one network and one subnet of clusterID for
// the Network and returns the Network.
func waitOwned(t *testing.T, clusterID, ns, name string) *samplecrdv1.Network {
	t.Helper()
	n := GetNetwork(t, ns, name)
	Eventually(t, 30*time.Second, 250*time.Millisecond, fmt.Sprintf("Neutron resources of cluster %s for %s/%s", clusterID, ns, name), func() error {
		_, _, err := OwnedResources(t, OwnerOf(clusterID, n))
		return err
	})
	return n
}

var klogHeader = regexp.MustCompile(`^[IWEF](\d{4} \d{2}:\d{2}:\d{2}\.\d{6}) `)

// logTime returns the timestamp of the first klog text line containing msg.
func logTime(t *testing.T, logs, msg string) time.Time {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		if !strings.Contains(line, msg) {
			continue
		}
		if m := klogHeader.FindStringSubmatch(line); m != nil {
			ts, err := time.Parse("0102 15:04:05.000000", m[1])
			if err == nil {
				return ts
			}
		}
	}
	t.Fatalf("no klog line with %q", msg)
	return time.Time{}
}
