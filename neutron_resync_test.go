package main

import (
	"fmt"
	"slices"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// A controller that starts leading over Networks that are all Ready makes two list calls
// in all, whatever their number, and writes nothing.
func TestRestartWithReadyNetworksCostsTwoListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		objects = append(objects, realizedNetwork(name, "10.20.0.0/24", ""))
	}
	f := newFixture(t, objects...)
	for _, o := range objects {
		putRealized(f.neutron, ownerOf(o), "10.20.0.0/24", "10.20.0.1")
	}

	if err := f.controller.waitForStore(f.ctx); err != nil {
		t.Fatalf("filling the store: %v", err)
	}
	for _, o := range objects {
		if err := f.sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}

	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}

func TestNeutronResyncRequeuesDriftAndCollectsOrphans(t *testing.T) {
	drifted := newNetwork("drifted", "10.8.0.0/24", "")
	f := newFixture(t, drifted)
	f.startLeading()
	if err := f.sync(drifted); err != nil {
		t.Fatalf("sync: %v", err)
	}
	drifted = f.refresh("default", "drifted")

	// Someone deleted the network in Neutron by hand.
	if err := f.neutron.DeleteNetwork(f.ctx, drifted.Status.NetworkID); err != nil {
		t.Fatal(err)
	}
	orphanOwner := neutron.Owner{ClusterID: testClusterID, UID: "uid-of-deleted-object"}
	ours := neutron.ClusterDescription(testClusterID)
	f.neutron.PutNetwork(neutron.Network{ID: "orphan", Description: ours, Tags: orphanOwner.Tags(), CreatedAt: anHourAgo})
	// Never tagged: its create was interrupted, then its object was removed by force.
	f.neutron.PutNetwork(neutron.Network{ID: "untagged-orphan", Name: orphanOwner.ResourceName(), Description: ours, CreatedAt: anHourAgo})
	f.neutron.PutNetwork(neutron.Network{ID: "young-orphan", Description: ours, Tags: orphanOwner.Tags(), CreatedAt: time.Now()})
	foreign := neutron.Owner{ClusterID: "another-cluster", UID: "uid-elsewhere"}
	f.neutron.PutNetwork(neutron.Network{ID: "foreign", Description: neutron.ClusterDescription(foreign.ClusterID), Tags: foreign.Tags(), CreatedAt: anHourAgo})
	f.neutron.ClearCalls()

	f.controller.resync.Once(f.ctx)

	// Two list calls for the whole cluster, one DELETE per collected orphan.
	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets", "delete network", "delete network"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Errorf("queue length = %d, want the drifted Network queued", n)
	}
	if !hasEvent(f.events(), "NeutronDrift") {
		t.Error("no NeutronDrift Event")
	}
	var ids []string
	for _, n := range f.neutron.Networks() {
		ids = append(ids, n.ID)
	}
	slices.Sort(ids)
	if want := []string{"foreign", "young-orphan"}; !slices.Equal(ids, want) {
		t.Errorf("networks left = %v, want %v (old orphans collected, young and foreign kept)", ids, want)
	}
}

func TestNeutronResyncLeavesRejectedSpecAlone(t *testing.T) {
	network := newNetwork("rejected-once", "10.9.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	f.neutron.FailWith("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Multicast"})
	if err := f.sync(network); !isTerminal(err) {
		t.Fatalf("sync error = %v, want a terminal error", err)
	}
	f.refresh("default", "rejected-once")

	f.controller.resync.Once(f.ctx)
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Errorf("resync queued %d items; a spec Neutron rejected must wait for a spec change", n)
	}
}

// A controller limited to some namespaces collects only the orphans of those: a Network
// of another namespace is not in its cache because another controller manages it.
func TestNeutronResyncCollectsOrphansOfWatchedNamespacesOnly(t *testing.T) {
	f := newFixtureWithConfig(t, func(c *Config) { c.Namespaces = scope.Namespaces{"team-a"} })
	f.startLeading()
	ours := neutron.ClusterDescription(testClusterID)
	for _, o := range []neutron.Owner{
		{ClusterID: testClusterID, Namespace: "team-a", Name: "gone", UID: "uid-a"},
		{ClusterID: testClusterID, Namespace: "team-b", Name: "elsewhere", UID: "uid-b"},
	} {
		f.neutron.PutNetwork(neutron.Network{ID: "net-" + o.Namespace, Name: o.ResourceName(), Description: ours, Tags: o.Tags(), CreatedAt: anHourAgo})
	}
	f.neutron.ClearCalls()

	f.controller.resync.Once(f.ctx)

	var ids []string
	for _, n := range f.neutron.Networks() {
		ids = append(ids, n.ID)
	}
	if want := []string{"net-team-b"}; !slices.Equal(ids, want) {
		t.Errorf("networks left = %v, want %v (team-a's orphan collected, team-b's left to its controller)", ids, want)
	}
}

// DNS servers, routes and DHCP changed by hand are drift like the gateway: the resync
// says what it restores and queues the Network, at no Neutron cost beyond its two lists.
func TestNeutronResyncFindsChangedSubnetOptions(t *testing.T) {
	network := newNetwork("options", "10.8.1.0/24", "")
	network.Spec.DNSNameservers = []string{"10.8.1.2"}
	f := newFixture(t, network)
	f.startLeading()
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	network = f.refresh("default", "options")
	s := f.neutron.Subnets()[0]
	s.DNSNameservers, s.HostRoutes, s.EnableDHCP = []string{"8.8.8.8"}, []neutron.HostRoute{{Destination: "0.0.0.0/0", NextHop: "10.8.1.9"}}, false
	f.neutron.PutSubnet(s)
	f.events()
	f.neutron.ClearCalls()

	f.controller.resync.Once(f.ctx)

	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Errorf("queue length = %d, want the changed Network queued", n)
	}
	want := "restoring dns nameservers from 8.8.8.8 to 10.8.1.2, host routes from 0.0.0.0/0 via 10.8.1.9 to none, dhcp from off to on"
	if events := f.events(); !hasEvent(events, want) {
		t.Errorf("Events = %q, want a NeutronDrift saying %q", events, want)
	}
}

// An orphan whose tags say its Network's deletion policy was Retain (the finalizer was
// removed by hand) is released, not deleted: kept with its subnet, without the cluster's
// marks. An orphan without that tag is deleted as before.
func TestNeutronResyncReleasesRetainedOrphans(t *testing.T) {
	f := newFixture(t)
	kept := neutron.Owner{ClusterID: testClusterID, Namespace: "team-a", Name: "kept", UID: "uid-a-kept"}
	doomed := neutron.Owner{ClusterID: testClusterID, Namespace: "team-a", Name: "doomed", UID: "uid-b-doomed"}
	putRealized(f.neutron, kept, "10.31.0.0/24", "10.31.0.1")
	addTags(f.neutron, "net-of-kept", neutron.RetainTag, foreignTag)
	putRealized(f.neutron, doomed, "10.31.1.0/24", "10.31.1.1")
	f.startLeading()

	f.controller.resync.Once(f.ctx)

	want := []string{"list networks", "list subnets", "relabel network", "relabel subnet", "tag network", "delete network"}
	if got := f.neutron.Calls(); !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	wantReleased("net-of-kept", "subnet-of-kept", "team-a/kept")(t, f, kept)
}

// More orphans at once than one pass may collect is what a reused cluster ID looks like:
// the pass collects none of them, says so in an Event and a metric, and collects them
// once they are few enough to be real orphans.
func TestOrphanCollectionStopsAtTheBreaker(t *testing.T) {
	f := newFixtureWithConfig(t, func(c *Config) {
		c.EventTarget = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "network-controller", Namespace: "ops"}}
	})
	ours := neutron.ClusterDescription(testClusterID)
	putOrphans := func(n int) {
		for i := range n {
			owner := neutron.Owner{ClusterID: testClusterID, UID: fmt.Sprintf("gone-%d", i)}
			f.neutron.PutNetwork(neutron.Network{ID: fmt.Sprintf("orphan-%d", i), Description: ours, Tags: owner.Tags(), CreatedAt: anHourAgo})
		}
	}
	putOrphans(orphanBreakerMin + 1) // one more than the breaker lets a pass collect
	f.startLeading()

	f.controller.resync.Once(f.ctx)
	if calls := f.neutron.Calls(); slices.Contains(calls, "delete network") {
		t.Errorf("Neutron calls %q: the breaker let deletions through", calls)
	}
	if n := len(f.neutron.Networks()); n != orphanBreakerMin+1 {
		t.Errorf("%d networks left, want all %d", n, orphanBreakerMin+1)
	}
	if !hasEvent(f.events(), "Warning OrphanCollectionHalted") {
		t.Error("no OrphanCollectionHalted Event")
	}
	if v := series(t, f.controller.metrics, "network_controller_orphan_collection_halted")[""].GetGauge().GetValue(); v != 1 {
		t.Errorf("orphan_collection_halted = %v, want 1", v)
	}

	// One gone by hand: now within the limit, all collected.
	if err := f.neutron.DeleteNetwork(f.ctx, "orphan-0"); err != nil {
		t.Fatal(err)
	}
	f.neutron.ClearCalls()
	f.controller.resync.Once(f.ctx)
	if n := len(f.neutron.Networks()); n != 0 {
		t.Errorf("%d networks left, want the %d orphans collected", n, orphanBreakerMin)
	}
	if v := series(t, f.controller.metrics, "network_controller_orphan_collection_halted")[""].GetGauge().GetValue(); v != 0 {
		t.Errorf("orphan_collection_halted = %v, want 0", v)
	}
}

// orphanBreakerMin is the fewest orphans the breaker of pkg/resync lets one pass collect.
const orphanBreakerMin = 10
