//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// TestShards runs three replicas on four shards over a Network in each of the fewest
// namespaces that give every shard two (about 14, by their names' hash), first through
// the shared apiserver, which filters lists and watches by shard
// (ShardedListAndWatch on), then, over the same Networks and more, through an apiserver of
// the test's own with the feature gate off, which ignores the shard selector: each
// replica then drops what it is sent of other shards. In both, every Network is Ready,
// made once in Neutron and counted once over the replicas' metrics; a replica killed
// without a word has its shards taken over, and a Network created in one of them
// meanwhile is Ready within the Lease duration plus 10 s; each replica's resync runs and
// collects no other shard's resources as orphans. All of it is deleted in the end.
func TestShards(t *testing.T) {
	t.Parallel()
	ExclusiveCluster(t)
	lt := LeaseTimings{Duration: 8 * time.Second, RenewDeadline: 6 * time.Second, RetryPeriod: time.Second}
	leaseNS, lease := NewNamespace(t), "e2e-shards-"+RandomSuffix(8)
	opts := ControllerOptions{ClusterID: NewClusterID(t), Args: append(LeaseArgs(leaseNS, lease, lt),
		fmt.Sprintf("-shards=%d", shardCount),
		// Every replica's resync runs (each phase waits for it), and would collect other
		// shards' resources as orphans if it looked at them.
		"-neutron-resync-period=5s",
		"-orphan-grace-period=5s",
	)}
	// Namespaces until each shard has shardMinNamespaces.
	var namespaces []string
	for slices.Min(namespacesPerShard(namespaces)) < shardMinNamespaces {
		namespaces = append(namespaces, NewNamespace(t))
	}
	t.Logf("namespaces per shard: %v", namespacesPerShard(namespaces))
	_, nets := Clients(t)
	s := &shardScenario{t: t, nets: nets, lt: lt, leaseNS: leaseNS, lease: lease, clusterID: opts.ClusterID, namespaces: namespaces}

	// Filtered by the apiserver.
	replicas := s.start(opts)
	start := time.Now()
	createNetworks(t, nets, namespaces, shardPerNS, "n")
	// The API's view first: an audit lists Neutron too, and each second's would take
	// Neutron's time from the replicas.
	waitNetworks(t, nets, namespaces, len(namespaces)*shardPerNS, true)
	t.Logf("%d Networks Ready %.1f s after the first create", len(namespaces)*shardPerNS, time.Since(start).Seconds())
	resynced(t, replicas)
	s.check(replicas, true)
	s.takeover(replicas, true, "after-kill")
	for _, c := range replicas {
		c.Stop()
	}

	// Filtered by each replica: a restart over the same Networks, then one more in each
	// namespace.
	_, kubeconfig := OwnAPIServer(t, "LOCAL_KUBE_SHARDED_WATCH=false")
	opts.Kubeconfig = kubeconfig
	replicas = s.start(opts)
	s.check(replicas, false)
	createNetworks(t, nets, namespaces, 1, "filtered")
	waitNetworks(t, nets, namespaces, s.want+len(namespaces), true)
	s.want += len(namespaces)
	resynced(t, replicas)
	s.check(replicas, false)
	s.takeover(replicas, false, "after-kill-filtered")

	deleted := time.Now()
	deleteNetworks(t, nets, namespaces)
	waitNetworks(t, nets, namespaces, 0, false)
	t.Logf("every Network gone %.1f s after the deletes", time.Since(deleted).Seconds())
	empty, _ := WaitAuditConverging(t, nets, 2*time.Minute, opts.ClusterID, namespaces...)
	if empty.Live != 0 || empty.Networks != 0 || empty.Subnets != 0 {
		t.Errorf("after deleting every Network: %s", empty.Counts())
	}
}

const (
	shardReplicas = 3
	shardCount    = 4
	// Every shard has two namespaces at least (by their names' hash), so that each shard's
	// Networks are made once and counted once, its resync sees other shards' resources,
	// and the takeover moves a shard that has Networks; one Network a namespace is enough
	// for that. Scale is the bench's shard stage (3,000 Networks), not this test's: the
	// test holds the cluster alone (its replicas watch every namespace), at 2 Networks in
	// each of 30 namespaces for more than a minute of make test, at 20 for about 10.
	shardMinNamespaces = 2
	shardPerNS         = 1
)

// shardScenario is what TestShards's two phases share: the Networks' namespaces, the
// Lease group, and how many Networks there are and were made.
type shardScenario struct {
	t                         *testing.T
	nets                      versioned.Interface
	lt                        LeaseTimings
	leaseNS, lease, clusterID string
	namespaces                []string
	// want is how many Networks there are; made counts the Neutron networks the replicas
	// of earlier phases said they made (their logs go with them).
	want, made int
}

// start starts the replicas and waits until they share the shards.
func (s *shardScenario) start(opts ControllerOptions) []*Controller {
	replicas := make([]*Controller, shardReplicas)
	for i := range replicas {
		replicas[i] = StartController(s.t, opts)
	}
	holders := waitShardsSpread(s.t, s.leaseNS, s.lease, replicas, 90*time.Second)
	s.t.Logf("shards held: %v", holders)
	if s.want == 0 {
		s.want = len(s.namespaces) * shardPerNS
	}
	return replicas
}

// resynced waits until each replica has finished a Neutron resync (and so its orphan
// collection) after now.
func resynced(t *testing.T, replicas []*Controller) {
	t.Helper()
	before := make([]int, len(replicas))
	for i, c := range replicas {
		before[i] = CountLines(c.Logs(), "Neutron resync done")
	}
	Eventually(t, time.Minute, 250*time.Millisecond, "a Neutron resync on every replica", func() error {
		for i, c := range replicas {
			if CountLines(c.Logs(), "Neutron resync done") == before[i] {
				return fmt.Errorf("replica %d: no Neutron resync done yet", c.PID())
			}
		}
		return nil
	})
}

// check: Neutron holds each Network once, Ready, and the replicas' metrics count each
// once and say whether the apiserver filtered by shard.
func (s *shardScenario) check(replicas []*Controller, served bool) {
	s.t.Helper()
	audit, _ := WaitAuditConverging(s.t, s.nets, 2*time.Minute, s.clusterID, s.namespaces...)
	s.t.Logf("audit: %s", audit.Counts())
	if audit.Live != s.want {
		s.t.Fatalf("audit saw %d live Networks, want %d", audit.Live, s.want)
	}
	checkShardMetrics(s.t, replicas, served, s.want)
}

// takeover kills the holder of the first namespace's shard, creates a Network there at
// once, and checks that it is Ready within the Lease duration plus 10 s, that the
// survivors share every shard, and that no Neutron network was made twice.
func (s *shardScenario) takeover(replicas []*Controller, served bool, name string) {
	t := s.t
	t.Helper()
	holders := waitShardsSpread(t, s.leaseNS, s.lease, replicas, 30*time.Second)
	victim := holderOf(t, holders, replicas, shard.Of(s.namespaces[0], shardCount))
	victimShards := heldBy(holders, victim)
	victim.Kill()
	created := time.Now()
	CreateNetwork(t, s.namespaces[0], name, "10.99.0.0/24", "")
	WaitReady(t, s.namespaces[0], name, s.lt.Duration+10*time.Second)
	t.Logf("a Network of killed shard(s) %v was Ready %.1f s after its create (Lease duration %s)", victimShards, time.Since(created).Seconds(), s.lt.Duration)
	s.want++
	var survivors []*Controller
	for _, c := range replicas {
		if c != victim {
			survivors = append(survivors, c)
		}
	}
	t.Logf("shards held after the kill: %v", waitShardsSpread(t, s.leaseNS, s.lease, survivors, 60*time.Second))
	s.check(survivors, served)
	// Made once each: a create either logs it, or was cut before its tags and the next
	// pass adopts what it made; and no pass found one made twice.
	for _, c := range replicas {
		s.made += CountLines(c.Logs(), "Created Neutron network") + CountLines(c.Logs(), "Adopted Neutron network left untagged")
	}
	if s.made != s.want {
		t.Errorf("the replicas' logs say %d Neutron networks were made, want %d: one per Network", s.made, s.want)
	}
	s.noDuplicates()
}

// noDuplicates fails for each Event saying a pass found and deleted a Neutron resource
// made twice.
func (s *shardScenario) noDuplicates() {
	kube, _ := Clients(s.t)
	for _, ns := range s.namespaces {
		events, err := kube.CoreV1().Events(ns).List(Ctx(s.t, 30*time.Second), metav1.ListOptions{FieldSelector: "reason=DuplicateDeleted"})
		if err != nil {
			s.t.Fatalf("listing Events of %s: %v", ns, err)
		}
		for _, e := range events.Items {
			s.t.Errorf("%s/%s: %s", ns, e.InvolvedObject.Name, e.Message)
		}
	}
}

// waitShardsSpread waits until every shard's Lease is held by one of replicas, each of
// which holds some, and returns the holder identity of each shard.
func waitShardsSpread(t *testing.T, ns, lease string, replicas []*Controller, timeout time.Duration) []string {
	t.Helper()
	holders := make([]string, shardCount)
	Eventually(t, timeout, 200*time.Millisecond, "every shard held, spread over the replicas", func() error {
		held := map[string]int{}
		for i := range holders {
			holder, _, err := leaseHolder(t, ns, shard.ShardLeaseName(lease, shard.Shard{Index: i, Count: shardCount}))
			if err != nil {
				return err
			}
			holders[i] = holder
			held[holder]++
		}
		for _, c := range replicas {
			if held[controllerIdentity(t, c.PID())] == 0 {
				return fmt.Errorf("replica %d holds no shard: %v", c.PID(), holders)
			}
		}
		if held[""] > 0 {
			return fmt.Errorf("a shard has no holder: %v", holders)
		}
		return nil
	})
	return slices.Clone(holders)
}

func holderOf(t *testing.T, holders []string, replicas []*Controller, s shard.Shard) *Controller {
	t.Helper()
	for _, c := range replicas {
		if controllerIdentity(t, c.PID()) == holders[s.Index] {
			return c
		}
	}
	t.Fatalf("no replica holds shard %s: %v", s, holders)
	return nil
}

func heldBy(holders []string, c *Controller) []int {
	var out []int
	for i, h := range holders {
		if strings.HasSuffix(h, fmt.Sprintf("_%d", c.PID())) {
			out = append(out, i)
		}
	}
	return out
}

func namespacesPerShard(namespaces []string) []int {
	per := make([]int, shardCount)
	for _, ns := range namespaces {
		per[shard.Of(ns, shardCount).Index]++
	}
	return per
}

// checkShardMetrics: the replicas' counts of their shards' Networks, and of Networks
// Ready, add up to want; each says whether the apiserver filtered by shard.
func checkShardMetrics(t *testing.T, replicas []*Controller, served bool, want int) {
	t.Helper()
	Eventually(t, 30*time.Second, time.Second, "the replicas' Network counts adding up", func() error {
		cached, ready, held := 0.0, 0.0, 0.0
		for _, c := range replicas {
			families, err := c.Metrics()
			if err != nil {
				return err
			}
			// Every shard's series on every replica: 1 on its holder, 0 elsewhere (what
			// NetworkControllerShardUnheld sums).
			if n := len(families["network_controller_shard_held"].GetMetric()); n != shardCount {
				return fmt.Errorf("replica %d exports network_controller_shard_held for %d shards, want %d", c.PID(), n, shardCount)
			}
			v, _ := metricSample(families, "network_controller_shard_held")
			held += v
			if v, ok := metricSample(families, "network_controller_shard_selector_served"); !ok || (v == 1) != served {
				return fmt.Errorf("replica %d: network_controller_shard_selector_served %v (exported: %v), want served=%v", c.PID(), v, ok, served)
			}
			v, _ = metricSample(families, "network_controller_shard_networks")
			cached += v
			v, _ = metricSample(families, "network_controller_networks", "status=True", "reason="+samplecrdv1.ReasonProvisioned)
			ready += v
		}
		if int(cached) != want || int(ready) != want || int(held) != shardCount {
			return fmt.Errorf("the replicas cache %.0f Networks of their shards and count %.0f Ready, want %d each; they hold %.0f shards, want %d",
				cached, ready, want, held, shardCount)
		}
		return nil
	})
}

// waitNetworks waits until want of the namespaces' Networks are Ready for their generation
// (ready) or until want are left (not ready), failing when the count has not moved toward
// it for two minutes.
func waitNetworks(t *testing.T, nets versioned.Interface, namespaces []string, want int, ready bool) {
	t.Helper()
	ours := map[string]bool{}
	for _, ns := range namespaces {
		ours[ns] = true
	}
	best, lastMove := -1, time.Now()
	for {
		list, err := nets.SamplecrdV1().Networks(metav1.NamespaceAll).List(Ctx(t, time.Minute), metav1.ListOptions{})
		if err != nil {
			t.Fatalf("listing Networks: %v", err)
		}
		count := 0
		for i := range list.Items {
			n := &list.Items[i]
			if ours[n.Namespace] && (!ready || n.IsReady()) {
				count++
			}
		}
		if count == want {
			return
		}
		progress := count
		if !ready {
			progress = -count
		}
		if best < 0 || progress > best {
			best, lastMove = progress, time.Now()
		}
		if time.Since(lastMove) > 2*time.Minute {
			t.Fatalf("%d Networks (ready=%v) for two minutes, want %d", count, ready, want)
		}
		time.Sleep(2 * time.Second)
	}
}

// createNetworks creates perNS Networks named prefix-<j> in each namespace, a few at a time.
func createNetworks(t *testing.T, nets versioned.Interface, namespaces []string, perNS int, prefix string) {
	t.Helper()
	errs := forEachNetwork(namespaces, perNS, 8, func(ns string, i, j int) error {
		n := i*perNS + j
		_, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, j), Namespace: ns},
			Spec:       samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("10.%d.%d.0/24", 100+n/250, n%250)}},
		}, metav1.CreateOptions{})
		return err
	})
	if len(errs) > 0 {
		t.Fatalf("creating Networks: %v", errs)
	}
}

// deleteNetworks deletes every Network of the namespaces.
func deleteNetworks(t *testing.T, nets versioned.Interface, namespaces []string) {
	t.Helper()
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, ns := range namespaces {
		wg.Go(func() {
			err := nets.SamplecrdV1().Networks(ns).DeleteCollection(Ctx(t, time.Minute), metav1.DeleteOptions{}, metav1.ListOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				mu.Lock()
				errs = append(errs, fmt.Errorf("namespace %s: %w", ns, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("deleting Networks: %v", errs)
	}
}

// forEachNetwork calls do for the j-th Network of the i-th namespace, parallel at once,
// and returns the errors.
func forEachNetwork(namespaces []string, perNS, parallel int, do func(ns string, i, j int) error) []error {
	type item struct{ i, j int }
	items := make(chan item)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for it := range items {
				if err := do(namespaces[it.i], it.i, it.j); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for j := range perNS {
		for i := range namespaces {
			items <- item{i, j}
		}
	}
	close(items)
	wg.Wait()
	return errs
}
