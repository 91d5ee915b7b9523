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
