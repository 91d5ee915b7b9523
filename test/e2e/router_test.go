//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// startTenantController starts a controller as the member user of project k8s for a new
// namespace whose Networks use team-a's credentials (Secret "openstack").
func startTenantController(t *testing.T, ks Keystone) (string, *Controller) {
	t.Helper()
	ns := NewNamespace(t)
	PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns},
		Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s", "-retry-max-delay=3s"), Env: ks.ControllerEnv()})
	return ns, ctrl
}

func teamA() *samplecrdv1.CloudCredentialsRef {
	return &samplecrdv1.CloudCredentialsRef{SecretName: "openstack", CloudName: TenantA}
}

// team-a's Network of two subnets with router.externalNetwork {name: public}: an owned
// router with its gateway on public and an interface on each subnet, as team-a's member
// user sees them; an interface removed and the gateway cleared by hand come back; the
// Network's deletion removes the interfaces, the router, the subnets and the network.
func TestOwnedRouterOnTheExternalNetwork(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	public := PublicNetwork(t)
	ns, _ := startTenantController(t, ks)
	asA := ks.DriverAs(t, TenantA)

	CreateNetworkWithSpec(t, ns, "routed", samplecrdv1.NetworkSpec{
		Subnets:             []samplecrdv1.NetworkSubnet{listItem("a", "10.80.0.0/24"), listItem("b", "10.80.1.0/24")},
		Router:              &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}},
		CloudCredentialsRef: teamA()})
	n := WaitRouted(t, ns, "routed", "", 2)
	r := n.Status.Router
	if !r.Owned || !sameSet(r.SubnetIDs, []string{findItem(n, "a").SubnetID, findItem(n, "b").SubnetID}) {
		t.Errorf("status.router = %+v, want an owned router with both subnets", r)
	}
	routers := RoutersOf(t, asA, neutron.Filter{IDs: []string{r.RouterID}})
	if len(routers) != 1 || routers[0].Gateway == nil || routers[0].Gateway.NetworkID != public.ID ||
		!sameSet(routers[0].GatewayAddresses(), r.ExternalGatewayAddresses) || len(r.ExternalGatewayAddresses) != 1 {
		t.Fatalf("team-a sees routers %+v; want router %s with its gateway on %s at %v", routers, r.RouterID, public.ID, r.ExternalGatewayAddresses)
	}
	if !strings.HasPrefix(r.ExternalGatewayAddresses[0], "203.0.113.") {
		t.Errorf("gateway address %s is not on public's subnet 203.0.113.0/24", r.ExternalGatewayAddresses[0])
	}
	if attached := AttachedOn(t, asA, n.Status.NetworkID); len(attached) != 1 || !sameSet(attached[r.RouterID], r.SubnetIDs) {
		t.Errorf("team-a sees interfaces %v on network %s, want router %s on %v", attached, n.Status.NetworkID, r.RouterID, r.SubnetIDs)
	}

	// Drift: an interface removed by hand, then the gateway cleared by hand.
	a := findItem(n, "a").SubnetID
	if err := asA.RemoveRouterInterface(Ctx(t, 90*time.Second), r.RouterID, a); err != nil {
		t.Fatalf("removing the interface on %s by hand: %v", a, err)
	}
	WaitEvent(t, ns, "routed", "Warning", "NeutronDrift", "is not attached to router "+r.RouterID, 120*time.Second)
	waitAttached(t, asA, n.Status.NetworkID, r.RouterID, r.SubnetIDs)
	ks.ClearGatewayAs(t, TenantA, r.RouterID)
	WaitEvent(t, ns, "routed", "Warning", "NeutronDrift", "restoring router gateway from none to network "+public.ID, 120*time.Second)
	WaitNetwork(t, ns, "routed", 60*time.Second, "the gateway back on public", func(*samplecrdv1.Network) error {
		if got := RoutersOf(t, asA, neutron.Filter{IDs: []string{r.RouterID}}); len(got) != 1 || got[0].Gateway == nil || got[0].Gateway.NetworkID != public.ID {
			return fmt.Errorf("router %+v", got)
		}
		return nil
	})

	DeleteNetwork(t, ns, "routed")
	WaitGone(t, ns, "routed", 120*time.Second)
	WaitEvent(t, ns, "routed", "Normal", "NeutronDeleted", "deleted router "+r.RouterID, 30*time.Second)
	if got := RoutersOf(t, asA, neutron.Filter{IDs: []string{r.RouterID}}); len(got) != 0 {
		t.Errorf("router %s outlives its Network: %+v", r.RouterID, got)
	}
	if nets, _ := asA.ListNetworks(Ctx(t, 90*time.Second), neutron.Filter{IDs: []string{n.Status.NetworkID}}); len(nets) != 0 {
		t.Errorf("network %s outlives its Network", n.Status.NetworkID)
	}
}

// A router team-a made by hand: the Network attaches only the subnet router.subnets names,
// moves the interface when the list changes, and its deletion leaves the router with no
// interface of it. A Network whose router is deleted by someone else stops with
// RouterNotFound instead of retrying.
func TestExistingRouterOfTheProject(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns, _ := startTenantController(t, ks)
	asA := ks.DriverAs(t, TenantA)
	router := ks.CreateRouterAs(t, TenantA, "e2e-tenant-router-"+RandomSuffix(6))

	CreateNetworkWithSpec(t, ns, "on-existing", samplecrdv1.NetworkSpec{
		Subnets: []samplecrdv1.NetworkSubnet{listItem("a", "10.81.0.0/24"), listItem("b", "10.81.1.0/24")},
		Router:  &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: router.Name}, Subnets: []string{"a"}}, CloudCredentialsRef: teamA()})
	n := WaitRouted(t, ns, "on-existing", router.ID, 1)
	if r := n.Status.Router; r.Owned || r.SubnetIDs[0] != findItem(n, "a").SubnetID {
		t.Errorf("status.router = %+v, want router %s, not owned, with item a's subnet", r, router.ID)
	}
	waitAttached(t, asA, n.Status.NetworkID, router.ID, []string{findItem(n, "a").SubnetID})

	UpdateNetworkSpec(t, ns, "on-existing", func(s *samplecrdv1.NetworkSpec) { s.Router.Subnets = []string{"b"} })
	n = WaitNetwork(t, ns, "on-existing", 60*time.Second, "item b attached instead of a", func(n *samplecrdv1.Network) error {
		if r := n.Status.Router; !n.IsReady() || n.Status.ObservedGeneration != n.Generation || r == nil || len(r.SubnetIDs) != 1 || r.SubnetIDs[0] != findItem(n, "b").SubnetID {
			return fmt.Errorf("%s, router %+v", DescribeReady(n), r)
		}
		return nil
	})
	waitAttached(t, asA, n.Status.NetworkID, router.ID, []string{findItem(n, "b").SubnetID})

	DeleteNetwork(t, ns, "on-existing")
	WaitGone(t, ns, "on-existing", 120*time.Second)
	if got := RoutersOf(t, asA, neutron.Filter{IDs: []string{router.ID}}); len(got) != 1 {
		t.Fatalf("team-a's router %s is gone with the Network", router.ID)
	}
	if attached := AttachedOn(t, asA, n.Status.NetworkID); len(attached) != 0 {
		t.Errorf("interfaces left on the deleted network: %v", attached)
	}

	// The router deleted by its owner under a Network: RouterNotFound, Stalled.
	CreateNetworkWithSpec(t, ns, "stranded", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.81.2.0/24"},
		Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{ID: router.ID}}, CloudCredentialsRef: teamA()})
	stranded := WaitRouted(t, ns, "stranded", router.ID, 1)
	// The controller attaches the subnet again at its next resync if it is quicker than
	// the router's delete: detach and delete until the delete goes through.
	deadline := time.Now().Add(90 * time.Second)
	for {
		if err := asA.RemoveRouterInterface(Ctx(t, 90*time.Second), router.ID, stranded.Status.SubnetID); err != nil {
			t.Fatal(err)
		}
		err := asA.DeleteRouter(Ctx(t, 90*time.Second), router.ID)
		if err == nil {
			break
		}
		if kind := neutron.KindOf(err); (kind != neutron.KindInUse && kind != neutron.KindConflict) || time.Now().After(deadline) {
			t.Fatalf("deleting router %s as team-a: %v", router.ID, err)
		}
	}
	gone := WaitReason(t, ns, "stranded", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonRouterNotFound)
	if msg := gone.ReadyCondition().Message; !strings.Contains(msg, router.ID) {
		t.Errorf("RouterNotFound message %q does not name router %s", msg, router.ID)
	}
	if c := findCondition(gone, "Stalled"); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("Stalled = %+v, want True: only a change can help", c)
	}
	DeleteNetwork(t, ns, "stranded")
	WaitGone(t, ns, "stranded", 120*time.Second)
}

// A routed subnet's gateway changes (the interface is detached for it and attached again).
// A port team-a made on a routed Network's subnet holds up its deletion, named with its
// device in the condition and an Event, and nothing is detached or deleted meanwhile;
// once the port goes, the deletion completes.
func TestRoutedDeletionWaitsForTheTenantsPort(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns, _ := startTenantController(t, ks)
	asA := ks.DriverAs(t, TenantA)

	CreateNetworkWithSpec(t, ns, "held", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.82.0.0/24"},
		Router: &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}}, CloudCredentialsRef: teamA()})
	WaitRouted(t, ns, "held", "", 1)
	// A new gateway for the routed subnet: detached for the change, attached again on it.
	UpdateNetworkSpec(t, ns, "held", func(s *samplecrdv1.NetworkSpec) { s.Gateway = "10.82.0.5" })
	n := WaitRouted(t, ns, "held", "", 1)
	if n.Status.Gateway != "10.82.0.5" {
		t.Errorf("status.gateway = %s after the change, want 10.82.0.5", n.Status.Gateway)
	}
	port := ks.CreatePortAs(t, TenantA, n.Status.NetworkID, n.Status.SubnetID)

	DeleteNetwork(t, ns, "held")
	blocked := WaitReason(t, ns, "held", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonSubnetInUse)
	for _, want := range []string{port.ID, "device " + port.DeviceID, "nothing was detached or deleted"} {
		if msg := blocked.ReadyCondition().Message; !strings.Contains(msg, want) {
			t.Errorf("SubnetInUse message %q does not say %q", msg, want)
		}
	}
	WaitEvent(t, ns, "held", "Warning", samplecrdv1.ReasonSubnetInUse, port.ID, 30*time.Second)
	if attached := AttachedOn(t, asA, n.Status.NetworkID); !sameSet(attached[n.Status.Router.RouterID], []string{n.Status.SubnetID}) {
		t.Errorf("interfaces %v while the deletion waits; want the router still attached", attached)
	}

	ks.DeletePortAs(t, TenantA, port.ID)
	WaitGone(t, ns, "held", 120*time.Second)
	if got := RoutersOf(t, asA, neutron.Filter{IDs: []string{n.Status.Router.RouterID}}); len(got) != 0 {
		t.Errorf("router outlives its Network: %+v", got)
	}
}

// enableSNAT, which Neutron's default policy keeps from members, is refused with a
// terminal reason naming the field, and no router is made; without it the Network
// becomes Ready.
func TestAdminOnlyRouterOptionIsNamed(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns, ctrl := startTenantController(t, ks)
	asA := ks.DriverAs(t, TenantA)

	n := CreateNetworkWithSpec(t, ns, "snat", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.83.0.0/24"},
		Router:              &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}, EnableSNAT: ptr.To(false)},
		CloudCredentialsRef: teamA()})
	refused := WaitReason(t, ns, "snat", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec)
	if msg := refused.ReadyCondition().Message; !strings.HasPrefix(msg, "spec.router.enableSNAT: this cloud's Neutron policy does not let the project's role set it") {
		t.Errorf("InvalidSpec message %q does not begin by naming spec.router.enableSNAT", msg)
	}
	owner := OwnerOf(ctrl.ClusterID, n)
	if got := RoutersOf(t, asA, neutron.Filter{Name: owner.ResourceName()}); len(got) != 0 {
		t.Errorf("a router was made all the same: %+v", got)
	}

	UpdateNetworkSpec(t, ns, "snat", func(s *samplecrdv1.NetworkSpec) { s.Router.EnableSNAT = nil })
	WaitRouted(t, ns, "snat", "", 1)
}

// waitAttached waits until routerID has exactly subnetIDs of network netID attached, as
// d's user sees it.
func waitAttached(t testing.TB, d neutron.Driver, netID, routerID string, subnetIDs []string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		attached := AttachedOn(t, d, netID)
		if sameSet(attached[routerID], subnetIDs) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("router %s has %v of network %s attached, want %v", routerID, attached[routerID], netID, subnetIDs)
		}
		time.Sleep(time.Second)
	}
}

func findCondition(n *samplecrdv1.Network, typ string) *metav1.Condition {
	i := slices.IndexFunc(n.Status.Conditions, func(c metav1.Condition) bool { return c.Type == typ })
	if i < 0 {
		return nil
	}
	return &n.Status.Conditions[i]
}
