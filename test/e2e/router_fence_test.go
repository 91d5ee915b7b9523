//go:build e2e

package e2e

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Two namespaces on the controller's own cloud share its project. One names the other's
// router, which the controller made, by ID and by name: neither Network attaches to it,
// both stop with RouterOfAnotherNetwork, and the router keeps only its owner's interface.
// A subnet attached to that router by hand (as an older version would have attached the
// intruder's) does not hold the owner's delete up: the router goes with its Network.
func TestRouterOfAnotherNamespace(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	PublicNetwork(t)
	owner, intruder := NewNamespace(t), NewNamespace(t)
	StartController(t, ControllerOptions{Namespaces: []string{owner, intruder},
		Args: append(ks.ControllerArgs(MemberCloud), "-retry-max-delay=3s"), Env: ks.ControllerEnv()})
	asMember := ks.DriverAs(t, MemberCloud)

	CreateNetworkWithSpec(t, owner, "victim", samplecrdv1.NetworkSpec{
		SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.82.0.0/24"},
		Router:       &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}}})
	victim := WaitRouted(t, owner, "victim", "", 1)
	routerID := victim.Status.Router.RouterID
	routers := RoutersOf(t, asMember, neutron.Filter{IDs: []string{routerID}})
	if len(routers) != 1 {
		t.Fatalf("the member user sees routers %+v, want router %s", routers, routerID)
	}

	for name, ref := range map[string]samplecrdv1.NeutronRef{"by-id": {ID: routerID}, "by-name": {Name: routers[0].Name}} {
		CreateNetworkWithSpec(t, intruder, name, samplecrdv1.NetworkSpec{
			SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.83.0.0/24"},
			Router:       &samplecrdv1.NetworkRouter{Existing: &ref}})
	}
	for _, name := range []string{"by-id", "by-name"} {
		n := WaitReason(t, intruder, name, 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonRouterOfAnotherNetwork)
		if n.Status.NetworkID != "" || n.Status.Router != nil {
			t.Errorf("%s: status has network %q and router %+v, want nothing made", name, n.Status.NetworkID, n.Status.Router)
		}
		WaitEvent(t, intruder, name, "Warning", samplecrdv1.ReasonRouterOfAnotherNetwork, routerID, 30*time.Second)
	}
	wantInterfaces(t, asMember, routerID, victim.Status.SubnetID)

	// What an older version left: a subnet of the project's attached to the owner's router.
	stray := strayAttachedSubnet(t, asMember, routerID)
	wantInterfaces(t, asMember, routerID, victim.Status.SubnetID, stray)
	DeleteNetwork(t, owner, "victim")
	WaitGone(t, owner, "victim", 120*time.Second)
	if got := RoutersOf(t, asMember, neutron.Filter{IDs: []string{routerID}}); len(got) != 0 {
		t.Errorf("router %s outlives its Network: %+v", routerID, got)
	}
	for _, name := range []string{"by-id", "by-name"} {
		DeleteNetwork(t, intruder, name)
		WaitGone(t, intruder, name, 60*time.Second)
	}
}

// strayAttachedSubnet makes a network and subnet as d's user, by hand, attaches the subnet
// to routerID and returns the subnet's ID; the end of the test deletes them.
func strayAttachedSubnet(t testing.TB, d neutron.Driver, routerID string) string {
	t.Helper()
	ctx := Ctx(t, 90*time.Second)
	net, err := d.CreateNetwork(ctx, neutron.NetworkRequest{Name: "e2e-stray-" + RandomSuffix(6), Description: t.Name()})
	if err != nil {
		t.Fatalf("creating a network by hand: %v", err)
	}
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, net.ID) })
	subnet, err := d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: net.ID, Name: net.Name, CIDR: "10.84.0.0/24", IPVersion: 4})
	if err != nil {
		t.Fatalf("creating a subnet by hand: %v", err)
	}
	if _, err := d.AddRouterInterface(ctx, routerID, subnet.ID); err != nil {
		t.Fatalf("attaching subnet %s to router %s by hand: %v", subnet.ID, routerID, err)
	}
	return subnet.ID
}

// wantInterfaces checks that routerID has interfaces on exactly subnetIDs, as d's user
// lists them by device. A list that fails (a Neutron slow under the other tests' load) is
// asked again; a wrong answer is not.
func wantInterfaces(t testing.TB, d neutron.Driver, routerID string, subnetIDs ...string) {
	t.Helper()
	var ports []neutron.Port
	Eventually(t, 120*time.Second, time.Second, "the interfaces of router "+routerID+" to be listed", func() (err error) {
		ports, err = d.ListPorts(Ctx(t, 90*time.Second), neutron.Filter{DeviceID: routerID, DeviceOwner: neutron.InterfaceOwner})
		return err
	})
	if got := neutron.AttachedSubnets(ports, routerID); !sameSet(got, subnetIDs) {
		t.Errorf("router %s has interfaces on %v, want %v", routerID, got, subnetIDs)
	}
}
