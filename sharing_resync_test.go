package main

import (
	"slices"
	"testing"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// A policy deleted by hand and port security turned on by hand are drift: the resync says
// what it restores and queues the Network, with one list of policies for the project.
func TestNeutronResyncFindsSharingAndPortSecurityDrift(t *testing.T) {
	network := withPortSecurity(withSharedWith(newNetwork("shared", "10.8.2.0/24", ""), "team-b"), ptr.To(false))
	f := newFixture(t, network)
	f.startLeading()
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	network = f.refresh("default", "shared")
	if len(network.Status.SharedWith) != 1 {
		t.Fatalf("status.sharedWith = %v, want team-b's policy", network.Status.SharedWith)
	}
	f.neutron.RemoveShare(network.Status.SharedWith[0].RBACPolicyID)
	net := f.neutron.Networks()[0]
	net.PortSecurityEnabled = ptr.To(true)
	f.neutron.PutNetwork(net)
	f.events()
	f.neutron.ClearCalls()

	f.controller.resync.Once(f.ctx)

	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets", "list rbac policies"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Errorf("queue length = %d, want the drifted Network queued", n)
	}
	events := f.events()
	for _, want := range []string{"restoring port security from on to off", "no longer shared with project team-b"} {
		if !hasEvent(events, want) {
			t.Errorf("Events = %q, want a NeutronDrift saying %q", events, want)
		}
	}
}

// A restart over Ready Networks, some shared, costs one list of policies for the project
// besides the two lists, and nothing per Network.
func TestRestartWithSharedNetworksCostsThreeListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		o := withSharesInStatus(withSharedWith(realizedNetwork(name, "10.40.0.0/24", ""), "team-b"))
		o.Status.SharedWith[0].RBACPolicyID = "rbac-of-" + name
		objects = append(objects, o)
	}
	f := newFixture(t, objects...)
	for _, o := range objects {
		putShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: o.Status.SharedWith[0].RBACPolicyID, ObjectID: netID, TargetProject: "team-b"})
		})(f.neutron, ownerOf(o))
	}

	if err := f.controller.waitForStore(f.ctx); err != nil {
		t.Fatalf("filling the store: %v", err)
	}
	for _, o := range objects {
		if err := f.sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}

	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets", "list rbac policies"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}
