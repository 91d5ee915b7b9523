package resync

import (
	"fmt"
	"slices"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
)

func TestNeutronResyncRequeuesDriftAndCollectsOrphans(t *testing.T) {
	drifted := networktest.NewNetwork("drifted", "10.8.0.0/24", "")
	f := newFixture(t, drifted)
	f.StartLeading()
	if err := f.Sync(drifted); err != nil {
		t.Fatalf("sync: %v", err)
	}
	drifted = f.Refresh("default", "drifted")

	// Someone deleted the network in Neutron by hand.
	if err := f.Neutron.DeleteNetwork(f.Ctx, drifted.Status.NetworkID); err != nil {
		t.Fatal(err)
	}
	orphanOwner := neutron.Owner{ClusterID: networktest.ClusterID, UID: "uid-of-deleted-object"}
	ours := neutron.ClusterDescription(networktest.ClusterID)
	f.Neutron.PutNetwork(neutron.Network{ID: "orphan", Description: ours, Tags: orphanOwner.Tags(), CreatedAt: networktest.AnHourAgo})
	// Never tagged: its create was interrupted, then its object was removed by force.
	f.Neutron.PutNetwork(neutron.Network{ID: "untagged-orphan", Name: orphanOwner.ResourceName(), Description: ours, CreatedAt: networktest.AnHourAgo})
	f.Neutron.PutNetwork(neutron.Network{ID: "young-orphan", Description: ours, Tags: orphanOwner.Tags(), CreatedAt: time.Now()})
	foreign := neutron.Owner{ClusterID: "another-cluster", UID: "uid-elsewhere"}
	f.Neutron.PutNetwork(neutron.Network{ID: "foreign", Description: neutron.ClusterDescription(foreign.ClusterID), Tags: foreign.Tags(), CreatedAt: networktest.AnHourAgo})
	f.Neutron.ClearCalls()

	// The drift checks falling due with the sweep are served by its lists.
	due := time.Now()
	f.resync.Once(f.Ctx)
	if listed := f.checkAllDueAt(due); listed != 0 {
		t.Errorf("the checks due with the sweep listed %d projects again, want 0", listed)
	}

	// Two list calls for the whole cluster, one DELETE per collected orphan.
	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets", "delete network", "delete network"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := len(f.queued); n != 1 {
		t.Errorf("queue length = %d, want the drifted Network queued", n)
	}
	if !networktest.HasEvent(f.Events(), "NeutronDrift") {
		t.Error("no NeutronDrift Event")
	}
	var ids []string
	for _, n := range f.Neutron.Networks() {
		ids = append(ids, n.ID)
	}
	slices.Sort(ids)
	if want := []string{"foreign", "young-orphan"}; !slices.Equal(ids, want) {
		t.Errorf("networks left = %v, want %v (old orphans collected, young and foreign kept)", ids, want)
	}
}

func TestNeutronResyncLeavesRejectedSpecAlone(t *testing.T) {
	network := networktest.NewNetwork("rejected-once", "10.9.0.0/24", "")
	f := newFixture(t, network)
	f.StartLeading()
	f.Neutron.FailWith("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Multicast"})
	if err := f.Sync(network); !networktest.IsTerminal(err) {
		t.Fatalf("sync error = %v, want a terminal error", err)
	}
	f.Refresh("default", "rejected-once")

	f.resync.Once(f.Ctx)
	if n := len(f.queued); n != 0 {
		t.Errorf("resync queued %d items; a spec Neutron rejected must wait for a spec change", n)
	}
}

// A controller limited to some namespaces collects only the orphans of those: a Network
// of another namespace is not in its cache because another controller manages it.
func TestNeutronResyncCollectsOrphansOfWatchedNamespacesOnly(t *testing.T) {
	f := newFixtureWithConfig(t, func(c *Config) { c.Namespaces = scope.Namespaces{"team-a"} })
	f.StartLeading()
	ours := neutron.ClusterDescription(networktest.ClusterID)
	for _, o := range []neutron.Owner{
		{ClusterID: networktest.ClusterID, Namespace: "team-a", Name: "gone", UID: "uid-a"},
		{ClusterID: networktest.ClusterID, Namespace: "team-b", Name: "elsewhere", UID: "uid-b"},
	} {
		f.Neutron.PutNetwork(neutron.Network{ID: "net-" + o.Namespace, Name: o.ResourceName(), Description: ours, Tags: o.Tags(), CreatedAt: networktest.AnHourAgo})
	}
	f.Neutron.ClearCalls()

	f.resync.Once(f.Ctx)

	var ids []string
	for _, n := range f.Neutron.Networks() {
		ids = append(ids, n.ID)
	}
	if want := []string{"net-team-b"}; !slices.Equal(ids, want) {
		t.Errorf("networks left = %v, want %v (team-a's orphan collected, team-b's left to its controller)", ids, want)
	}
}

// A replica holding some shards collects only the orphans of their namespaces, and one
// holding none lists nothing at all: the other shards' holders collect theirs.
func TestNeutronResyncCollectsOrphansOfHeldShardsOnly(t *testing.T) {
	const shards = 4
	other := "team-b"
	for i := 0; shard.Of(other, shards) == shard.Of("team-a", shards); i++ {
		other = fmt.Sprintf("team-b%d", i)
	}
	ownership := scope.NewOwnership(nil, shards)
	f := newFixtureWithConfig(t, func(c *Config) { c.Ownership = ownership })
	f.StartLeading()
	ours := neutron.ClusterDescription(networktest.ClusterID)
	for _, o := range []neutron.Owner{
		{ClusterID: networktest.ClusterID, Namespace: "team-a", Name: "gone", UID: "uid-a"},
		{ClusterID: networktest.ClusterID, Namespace: other, Name: "elsewhere", UID: "uid-b"},
	} {
		f.Neutron.PutNetwork(neutron.Network{ID: "net-" + o.Namespace, Name: o.ResourceName(), Description: ours, Tags: o.Tags(), CreatedAt: networktest.AnHourAgo})
	}
	f.Neutron.ClearCalls()

	f.resync.Once(f.Ctx)
	if got := f.Neutron.Calls(); len(got) != 0 {
		t.Fatalf("a replica holding no shard called Neutron: %q", got)
	}

	ownership.Hold(shard.Of("team-a", shards))
	f.resync.Once(f.Ctx)
	var ids []string
	for _, n := range f.Neutron.Networks() {
		ids = append(ids, n.ID)
	}
	if want := []string{"net-" + other}; !slices.Equal(ids, want) {
		t.Errorf("networks left = %v, want %v (team-a's orphan collected, %s's left to its shard's holder)", ids, want, other)
	}
}

// DNS servers, routes and DHCP changed by hand are drift like the gateway: the resync
// says what it restores and queues the Network, at no Neutron cost beyond its two lists.
func TestNeutronResyncFindsChangedSubnetOptions(t *testing.T) {
	network := networktest.NewNetwork("options", "10.8.1.0/24", "")
	network.Spec.DNSNameservers = []string{"10.8.1.2"}
	f := newFixture(t, network)
	f.StartLeading()
	if err := f.Sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	network = f.Refresh("default", "options")
	s := f.Neutron.Subnets()[0]
	s.DNSNameservers, s.HostRoutes, s.EnableDHCP = []string{"8.8.8.8"}, []neutron.HostRoute{{Destination: "0.0.0.0/0", NextHop: "10.8.1.9"}}, false
	f.Neutron.PutSubnet(s)
	f.Events()
	f.Neutron.ClearCalls()

	f.checkAllDueAt(time.Now())

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := len(f.queued); n != 1 {
		t.Errorf("queue length = %d, want the changed Network queued", n)
	}
	want := "restoring dns nameservers from 8.8.8.8 to 10.8.1.2, host routes from 0.0.0.0/0 via 10.8.1.9 to none, dhcp from off to on"
	if events := f.Events(); !networktest.HasEvent(events, want) {
		t.Errorf("Events = %q, want a NeutronDrift saying %q", events, want)
	}
}

// An orphan whose tags say its Network's deletion policy was Retain (the finalizer was
// removed by hand) is released, not deleted: kept with its subnet, without the cluster's
// marks. An orphan without that tag is deleted as before.
func TestNeutronResyncReleasesRetainedOrphans(t *testing.T) {
	f := newFixture(t)
	kept := neutron.Owner{ClusterID: networktest.ClusterID, Namespace: "team-a", Name: "kept", UID: "uid-a-kept"}
	doomed := neutron.Owner{ClusterID: networktest.ClusterID, Namespace: "team-a", Name: "doomed", UID: "uid-b-doomed"}
	networktest.PutRealized(f.Neutron, kept, "10.31.0.0/24", "10.31.0.1")
	networktest.AddTags(f.Neutron, "net-of-kept", neutron.RetainTag, networktest.ForeignTag)
	networktest.PutRealized(f.Neutron, doomed, "10.31.1.0/24", "10.31.1.1")
	f.StartLeading()

	f.resync.Once(f.Ctx)

	want := []string{"list networks", "list subnets", "relabel network", "relabel subnet", "tag network", "delete network"}
	if got := f.Neutron.Calls(); !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	networktest.WantReleased("net-of-kept", "subnet-of-kept", "team-a/kept")(t, f.Fixture, kept)
}

// More orphans at once than one pass may collect is what a reused cluster ID looks like:
// the pass collects none of them, says so in an Event and a metric, and collects them
// once they are few enough to be real orphans.
func TestOrphanCollectionStopsAtTheBreaker(t *testing.T) {
	f := newFixtureWithConfig(t, func(c *Config) {
		c.EventTarget = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "network-controller", Namespace: "ops"}}
	})
	ours := neutron.ClusterDescription(networktest.ClusterID)
	putOrphans := func(n int) {
		for i := range n {
			owner := neutron.Owner{ClusterID: networktest.ClusterID, UID: fmt.Sprintf("gone-%d", i)}
			f.Neutron.PutNetwork(neutron.Network{ID: fmt.Sprintf("orphan-%d", i), Description: ours, Tags: owner.Tags(), CreatedAt: networktest.AnHourAgo})
		}
	}
	putOrphans(orphanBreakerMin + 1) // one more than the breaker lets a pass collect
	f.StartLeading()

	f.resync.Once(f.Ctx)
	if calls := f.Neutron.Calls(); slices.Contains(calls, "delete network") {
		t.Errorf("Neutron calls %q: the breaker let deletions through", calls)
	}
	if n := len(f.Neutron.Networks()); n != orphanBreakerMin+1 {
		t.Errorf("%d networks left, want all %d", n, orphanBreakerMin+1)
	}
	if !networktest.HasEvent(f.Events(), "Warning OrphanCollectionHalted") {
		t.Error("no OrphanCollectionHalted Event")
	}
	if v := networktest.Series(t, f.Metrics, "network_controller_orphan_collection_halted")[""].GetGauge().GetValue(); v != 1 {
		t.Errorf("orphan_collection_halted = %v, want 1", v)
	}

	// One gone by hand: now within the limit, all collected.
	if err := f.Neutron.DeleteNetwork(f.Ctx, "orphan-0"); err != nil {
		t.Fatal(err)
	}
	f.Neutron.ClearCalls()
	f.resync.Once(f.Ctx)
	if n := len(f.Neutron.Networks()); n != 0 {
		t.Errorf("%d networks left, want the %d orphans collected", n, orphanBreakerMin)
	}
	if v := networktest.Series(t, f.Metrics, "network_controller_orphan_collection_halted")[""].GetGauge().GetValue(); v != 0 {
		t.Errorf("orphan_collection_halted = %v, want 0", v)
	}
}

// A paused Network whose Neutron side drifted is neither queued nor reported, and its
// Neutron network is not an orphan: it waits for the pause to end.
func TestNeutronResyncLeavesPausedNetworksAlone(t *testing.T) {
	held := networktest.NewNetwork("held", "10.8.3.0/24", "")
	f := newFixture(t, held)
	f.StartLeading()
	if err := f.Sync(held); err != nil {
		t.Fatalf("sync: %v", err)
	}
	held = f.Refresh("default", "held").DeepCopy()
	held.Annotations = map[string]string{samplecrdv1.AnnotationReconcile: samplecrdv1.ReconcilePaused}
	f.Put(held)
	subnet := f.Neutron.Subnets()[0]
	if _, err := f.Neutron.UpdateSubnet(f.Ctx, subnet.ID, neutron.SubnetAttrs{GatewayIP: ptr.To(neutron.GatewayIP("10.8.3.99"))}); err != nil {
		t.Fatal(err)
	}
	f.Events()
	f.Neutron.ClearCalls()

	f.resync.Once(f.Ctx)

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want only the project's two lists", got)
	}
	if len(f.queued) != 0 || networktest.HasEvent(f.Events(), "NeutronDrift") {
		t.Errorf("queued %v, Events %q: a paused Network is neither requeued nor reported", f.queued, f.Events())
	}
	if n := len(f.Neutron.Networks()); n != 1 {
		t.Errorf("%d networks left, want the paused Network's kept", n)
	}
}
