package resync

import (
	"slices"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A policy deleted by hand and port security turned on by hand are drift: the resync says
// what it restores and queues the Network, with one list of policies for the project.
func TestNeutronResyncFindsSharingAndPortSecurityDrift(t *testing.T) {
	network := networktest.WithPortSecurity(networktest.WithSharedWith(networktest.NewNetwork("shared", "10.8.2.0/24", ""), "team-b"), ptr.To(false))
	f := newFixture(t, network)
	f.StartLeading()
	if err := f.Sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	network = f.Refresh("default", "shared")
	if len(network.Status.SharedWith) != 1 {
		t.Fatalf("status.sharedWith = %v, want team-b's policy", network.Status.SharedWith)
	}
	f.Neutron.RemoveShare(network.Status.SharedWith[0].RBACPolicyID)
	net := f.Neutron.Networks()[0]
	net.PortSecurityEnabled = ptr.To(true)
	f.Neutron.PutNetwork(net)

	f.resyncFindsDrift("restoring port security from on to off", "no longer shared with project team-b")
}

// resyncFindsDrift runs the drift check of every Network, which must list the project's
// networks, subnets and policies once, queue each Network and record a NeutronDrift Event
// saying each of drifts.
func (f *fixture) resyncFindsDrift(drifts ...string) {
	f.T.Helper()
	f.Events()
	f.Neutron.ClearCalls()

	f.checkAllDueAt(time.Now())

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets", "list rbac policies"}; !slices.Equal(got, want) {
		f.T.Errorf("Neutron calls = %q, want %q", got, want)
	}
	// Every Network checked is queued: its pass records the check, and repairs.
	if n, want := len(f.queued), len(f.Networks.List()); n != want {
		f.T.Errorf("queue length = %d, want the %d Networks checked queued", n, want)
	}
	events := f.Events()
	for _, want := range drifts {
		if !networktest.HasEvent(events, want) {
			f.T.Errorf("Events = %q, want a NeutronDrift saying %q", events, want)
		}
	}
}

// A policy on a network whose sharing mark is off (a dead controller's create carried out
// late) is drift, seen in the list of policies another shared network makes the resync
// ask for: the Network is queued, and its Event names the policy.
func TestNeutronResyncFindsAPolicyOfAnUnmarkedNetwork(t *testing.T) {
	shared := networktest.WithSharedWith(networktest.NewNetwork("shared", "10.8.2.0/24", ""), "team-b")
	unshared := networktest.NewNetwork("unshared", "10.8.3.0/24", "")
	f := newFixture(t, shared, unshared)
	f.StartLeading()
	for _, n := range []*samplecrdv1.Network{shared, unshared} {
		if err := f.Sync(n); err != nil {
			t.Fatalf("sync %s: %v", n.Name, err)
		}
		f.Refresh("default", n.Name)
	}
	netID := f.Refresh("default", "unshared").Status.NetworkID
	f.Neutron.PutShare(neutron.RBACPolicy{ID: "rbac-late", ObjectID: netID, TargetProject: "team-c"})

	f.resyncFindsDrift("shared with project team-c outside the spec (RBAC policy rbac-late)")
}
