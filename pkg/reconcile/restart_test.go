package reconcile_test

import (
	"slices"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// A controller that starts leading over Networks that are all Ready makes two list calls
// in all, whatever their number, and writes nothing.
func TestRestartWithReadyNetworksCostsTwoListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		objects = append(objects, RealizedNetwork(name, "10.20.0.0/24", ""))
	}
	f := New(t, objects...)
	for _, o := range objects {
		PutRealized(f.Neutron, OwnerOf(o), "10.20.0.0/24", "10.20.0.1")
	}

	f.FillStore()
	for _, o := range objects {
		if err := f.Sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.Writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}

// A restart over Ready routed Networks costs three lists for the project's routers besides
// the two, and nothing per Network.
func TestRestartWithRoutedNetworksCostsFiveListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		objects = append(objects, WithRouterInStatus(WithRouter(RealizedNetwork(name, "10.60.0.0/24", ""), External("public"))))
	}
	f := New(t, objects...)
	for _, o := range objects {
		putRoutedIn(f.Neutron, OwnerOf(o))
	}
	f.FillStore()
	for _, o := range objects {
		if err := f.Sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}
	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets", "list routers", "list ports", "list networks"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.Writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}

// A restart over Ready Networks, some shared, costs one list of policies for the project
// besides the two lists, and nothing per Network.
func TestRestartWithSharedNetworksCostsThreeListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		o := WithSharesInStatus(WithSharedWith(RealizedNetwork(name, "10.40.0.0/24", ""), "team-b"))
		o.Status.SharedWith[0].RBACPolicyID = "rbac-of-" + name
		objects = append(objects, o)
	}
	f := New(t, objects...)
	for _, o := range objects {
		PutShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: o.Status.SharedWith[0].RBACPolicyID, ObjectID: netID, TargetProject: "team-b"})
		})(f.Neutron, OwnerOf(o))
	}

	f.FillStore()
	for _, o := range objects {
		if err := f.Sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets", "list rbac policies"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.Writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}

// A share that lands after the sharing mark came off (the create of a controller that died,
// carried out after its successor unshared the network) is found by the next list of the
// project's policies, made for another shared network, and deleted without another list.
func TestRestartDeletesAPolicyOfAnUnmarkedNetwork(t *testing.T) {
	shared := WithSharesInStatus(WithSharedWith(RealizedNetwork("shared", "10.40.0.0/24", ""), "team-b"))
	shared.Status.SharedWith[0].RBACPolicyID = "rbac-of-shared"
	unshared := RealizedNetwork("unshared", "10.40.0.0/24", "")
	f := New(t, shared, unshared)
	PutShared(func(d *neutronfake.Driver, netID string) {
		d.PutShare(neutron.RBACPolicy{ID: "rbac-of-shared", ObjectID: netID, TargetProject: "team-b"})
	})(f.Neutron, OwnerOf(shared))
	PutRealizedWith("10.40.0.0/24", nil)(f.Neutron, OwnerOf(unshared))
	f.Neutron.PutShare(neutron.RBACPolicy{ID: "rbac-late", ObjectID: "net-of-unshared", TargetProject: "team-c"})

	f.FillStore()
	for _, o := range []*samplecrdv1.Network{shared, unshared} {
		if err := f.Sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets", "list rbac policies", "delete rbac policy"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if got := f.Neutron.Shares(); len(got) != 1 || got[0].ID != "rbac-of-shared" {
		t.Errorf("RBAC policies left = %v, want only rbac-of-shared", got)
	}
	if !HasEvent(f.Events(), "Stopped sharing Neutron network net-of-unshared with project team-c (deleted RBAC policy rbac-late)") {
		t.Errorf("Events = %q, want the late policy's deletion", f.Events())
	}
}
