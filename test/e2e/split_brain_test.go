//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/samplecrd/network-controller/pkg/shard"
)

// TestSplitBrain freezes the leader of two replicas (SIGSTOP) for longer than the lease,
// so that the standby takes over, and thaws it (SIGCONT) while Networks are being
// created: for a moment two processes believe they lead. The thawed one must notice that
// it lost the Lease and stop (it exits), and in the end Neutron holds exactly one network
// and one subnet per Network, nothing more. Neutron is reached through a proxy that
// delays requests, to keep Neutron calls in flight across the freeze and the thaw.
func TestSplitBrain(t *testing.T) {
	t.Parallel()
	const resyncPeriod = 5 * time.Second
	seed := time.Now().UnixNano()
	proxy := StartFaultProxy(t, NeutronEndpoint, seed, FaultRates{Delay: 0.5, MaxDelay: 500 * time.Millisecond})
	ns, lease, opts := CompetingControllers(t, LeaseTimings{Duration: 4 * time.Second, RenewDeadline: 3 * time.Second, RetryPeriod: 500 * time.Millisecond},
		"-neutron-endpoint="+proxy.URL(),
		"-neutron-resync-period="+resyncPeriod.String(),
		"-orphan-grace-period=5s",
		"-retry-max-delay=2s",
	)
	clusterID := opts.ClusterID
	_, nets := Clients(t)

	a, b := startFreezable(t, opts)
	leader, standby := waitLeader(t, ns, lease, 60*time.Second, a, b)

	create := func(from, to int) {
		for i := from; i < to; i++ {
			CreateNetwork(t, ns, fmt.Sprintf("sb-%d", i), fmt.Sprintf("10.77.%d.0/24", i), "")
		}
	}
	waitReady := func(from, to int) {
		for i := from; i < to; i++ {
			WaitReady(t, ns, fmt.Sprintf("sb-%d", i), 90*time.Second)
		}
	}
	create(0, 4)
	waitReady(0, 4)

	// Freeze the leader with work in its queue; the standby must take over and do it.
	leader.Signal(syscall.SIGSTOP)
	frozen := time.Now()
	create(4, 8)
	SetGateway(t, ns, "sb-0", "10.77.0.200")
	waitLeaseHolder(t, ns, lease, controllerIdentity(t, standby.PID()), 60*time.Second)
	t.Logf("standby took the Lease %s after the leader was frozen", time.Since(frozen).Round(100*time.Millisecond))
	waitReady(0, 8)
	if got := GetNetwork(t, ns, "sb-0").Status.Gateway; got != "10.77.0.200" {
		t.Errorf("sb-0: status.gateway %q after the standby took over, want 10.77.0.200", got)
	}

	// Thaw the old leader in the middle of a burst of creates.
	create(8, 12)
	thawOffset := len(leader.Logs())
	leader.Signal(syscall.SIGCONT)
	thawed := time.Now()
	create(12, 16)
	t.Logf("old leader thawed %s after it was frozen", thawed.Sub(frozen).Round(100*time.Millisecond))

	// It finds the Lease taken and stops reconciling: it exits with an error, saying why.
	code, err := leader.Wait(60 * time.Second)
	if err != nil {
		t.Fatalf("the thawed old leader is still running: %v\n%s", err, LastLines(leader.Logs(), 30))
	}
	afterThaw := leader.Logs()[thawOffset:]
	t.Logf("old leader exited with code %d %s after the thaw, having created %d Neutron networks and %d subnets since; its log since the thaw:\n%s",
		code, time.Since(thawed).Round(100*time.Millisecond), CountLines(afterThaw, "Created Neutron network"),
		CountLines(afterThaw, "Created Neutron subnet"), LastLines(afterThaw, 20))
	if code == 0 {
		t.Errorf("the old leader exited with code 0 after losing the Lease; want a failure code")
	}
	if !strings.Contains(afterThaw, "Lost leadership") {
		t.Errorf("the old leader did not log that it lost the Lease:\n%s", LastLines(afterThaw, 30))
	}
	holder, _, err := leaseHolder(t, ns, lease)
	if err != nil || holder != controllerIdentity(t, standby.PID()) {
		t.Errorf("Lease holder %q (%v) after the thaw, want the former standby %s", holder, err, controllerIdentity(t, standby.PID()))
	}

	// The new leader converges everything, and no duplicate survives its resync.
	waitReady(0, 16)
	audit, took := WaitAuditConverging(t, nets, time.Minute, clusterID, ns)
	t.Logf("split brain: converged %.1f s after the old leader exited (resync period %s): %s; proxy: %s",
		took.Seconds(), resyncPeriod, audit.Counts(), proxy.Counts())
	if audit.Live != 16 {
		t.Errorf("audit saw %d live Networks, want 16", audit.Live)
	}

	// The new leader also deletes.
	list, err := nets.SamplecrdV1().Networks(ns).List(Ctx(t, 30*time.Second), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing Networks: %v", err)
	}
	for _, n := range list.Items {
		DeleteNetwork(t, ns, n.Name)
	}
	empty, _ := WaitAuditConverging(t, nets, time.Minute, clusterID, ns)
	if empty.Live != 0 || empty.Networks != 0 || empty.Subnets != 0 {
		t.Errorf("after deleting every Network: %s", empty.Counts())
	}
}

// TestSplitBrainShards is TestSplitBrain for replicas sharing shards: of two replicas
// holding a shard each, one is frozen for longer than the Lease, so that the other takes
// its shard over, and thawed while Networks of that shard are being created. The thawed
// one must find its shard's Lease taken and exit, and in the end Neutron holds one
// network and one subnet per Network, and every Network in the other shard was never
// touched by the frozen one. The replicas watch only the test's namespaces (each shard's
// informers cover its namespaces), so the test shares the cluster.
func TestSplitBrainShards(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	proxy := StartFaultProxy(t, NeutronEndpoint, seed, FaultRates{Delay: 0.5, MaxDelay: 500 * time.Millisecond})
	lt := LeaseTimings{Duration: 4 * time.Second, RenewDeadline: 3 * time.Second, RetryPeriod: 500 * time.Millisecond}
	leaseNS, lease := NewNamespace(t), "e2e-sb-shards-"+RandomSuffix(8)
	opts := ControllerOptions{ClusterID: NewClusterID(t), Args: append(LeaseArgs(leaseNS, lease, lt),
		"-shards=2",
		"-neutron-endpoint="+proxy.URL(),
		"-neutron-resync-period=5s",
		"-orphan-grace-period=5s",
		"-retry-max-delay=2s",
	)}
	// Namespaces until each shard has two.
	byShard := map[int][]string{}
	for len(byShard[0]) < 2 || len(byShard[1]) < 2 {
		ns := NewNamespace(t)
		i := shard.Of(ns, 2).Index
		byShard[i] = append(byShard[i], ns)
	}
	all := append(slices.Clone(byShard[0]), byShard[1]...)
	opts.Namespaces = all
	_, nets := Clients(t)

	a, b := startFreezable(t, opts)
	holders := make([]string, 2)
	Eventually(t, 60*time.Second, 100*time.Millisecond, "one shard held by each replica", func() error {
		for i := range holders {
			h, _, err := leaseHolder(t, leaseNS, shard.ShardLeaseName(lease, shard.Shard{Index: i, Count: 2}))
			if err != nil {
				return err
			}
			holders[i] = h
		}
		if holders[0] == "" || holders[1] == "" || holders[0] == holders[1] {
			return fmt.Errorf("holders %v", holders)
		}
		return nil
	})
	frozen, other := a, b
	if holders[0] != controllerIdentity(t, a.PID()) {
		frozen, other = b, a
	}
	frozenShard := shard.ShardLeaseName(lease, shard.Shard{Index: 0, Count: 2})
	count := 0
	create := func(namespaces []string, each int) {
		for range each {
			for _, ns := range namespaces {
				CreateNetwork(t, ns, fmt.Sprintf("sb-%d", count), fmt.Sprintf("10.78.%d.0/24", count), "")
				count++
			}
		}
	}
	create(all, 2)
	audit, _ := WaitAuditConverging(t, nets, time.Minute, opts.ClusterID, all...)
	t.Logf("before the freeze: %s", audit.Counts())

	frozen.Signal(syscall.SIGSTOP)
	froze := time.Now()
	create(byShard[0], 2)
	waitLeaseHolder(t, leaseNS, frozenShard, controllerIdentity(t, other.PID()), 60*time.Second)
	t.Logf("the other replica took shard 0 %s after its holder was frozen", time.Since(froze).Round(100*time.Millisecond))

	create(byShard[0], 2)
	thawOffset := len(frozen.Logs())
	frozen.Signal(syscall.SIGCONT)
	thawed := time.Now()
	create(byShard[0], 2)
	code, err := frozen.Wait(60 * time.Second)
	if err != nil {
		t.Fatalf("the thawed replica is still running: %v\n%s", err, LastLines(frozen.Logs(), 30))
	}
	afterThaw := frozen.Logs()[thawOffset:]
	t.Logf("thawed replica exited with code %d %s after the thaw, having created %d Neutron networks since; its log since the thaw:\n%s",
		code, time.Since(thawed).Round(100*time.Millisecond), CountLines(afterThaw, "Created Neutron network"), LastLines(afterThaw, 20))
	if code == 0 {
		t.Errorf("the thawed replica exited with code 0 after losing its shard; want a failure code")
	}
	if !strings.Contains(afterThaw, "Lost a shard's Lease") {
		t.Errorf("the thawed replica did not log that it lost its shard:\n%s", LastLines(afterThaw, 30))
	}
	for _, ns := range byShard[1] {
		if strings.Contains(afterThaw, `network="`+ns+`/`) {
			t.Errorf("the thawed replica touched a Network of namespace %s, of the shard it never held", ns)
		}
	}

	audit, took := WaitAuditConverging(t, nets, time.Minute, opts.ClusterID, all...)
	t.Logf("split brain of shards: converged %.1f s after the thawed replica exited: %s; proxy: %s", took.Seconds(), audit.Counts(), proxy.Counts())
	if audit.Live != count {
		t.Errorf("audit saw %d live Networks, want %d", audit.Live, count)
	}
	deleteNetworks(t, nets, all)
	empty, _ := WaitAuditConverging(t, nets, time.Minute, opts.ClusterID, all...)
	if empty.Live != 0 || empty.Networks != 0 || empty.Subnets != 0 {
		t.Errorf("after deleting every Network: %s", empty.Counts())
	}
}

// startFreezable starts two controllers of opts, and thaws them at the end of the test
// before the framework stops them (cleanups run last-registered first), so that a test
// may freeze them with SIGSTOP.
func startFreezable(t *testing.T, opts ControllerOptions) (a, b *Controller) {
	a, b = StartController(t, opts), StartController(t, opts)
	t.Cleanup(func() {
		for _, c := range []*Controller{a, b} {
			if !c.Exited() {
				_ = syscall.Kill(c.PID(), syscall.SIGCONT)
			}
		}
	})
	return a, b
}
