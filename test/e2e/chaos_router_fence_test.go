//go:build e2e

package e2e

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Two namespaces share the controller's cloud, reached through a proxy that fails, loses
// and delays Neutron's replies. For twenty seconds both make and delete routed Networks,
// and Networks of each name the routers the controller made for the other's (and their
// own namespace's), by ID and by name, also while those routers are being made or
// deleted. Afterwards no Network that named another's router is Ready or attached to it,
// each owner's router holds its owner's subnet alone, and every delete completes with
// nothing of the cluster left in Neutron.
func TestChaosRouterFence(t *testing.T) {
	t.Parallel()
	seed := chaosSeed(t)
	t.Logf("chaos seed %d (replay with E2E_CHAOS_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewSource(seed))
	namespaces := []string{NewNamespace(t), NewNamespace(t)}
	clusterID := NewClusterID(t)
	CleanupClusterRouters(t, clusterID)
	PublicNetwork(t)
	proxy := StartFaultProxy(t, NeutronEndpoint, seed+7, FaultRates{})
	StartController(t, ControllerOptions{Namespaces: namespaces, ClusterID: clusterID,
		Args: []string{"-neutron-endpoint=" + proxy.URL(), "-retry-max-delay=2s", "-workers=4"}})
	_, nets := Clients(t)

	type ref struct{ ns, name string }
	var owners, intruders []ref
	deleted := map[ref]bool{}
	createOwner := func(ns string, i int) {
		name := fmt.Sprintf("owner-%d", i)
		CreateNetworkWithSpec(t, ns, name, samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("10.86.%d.0/24", i%250)},
			Router: &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}}})
		owners = append(owners, ref{ns, name})
	}
	// Routers to name from the start, made without faults.
	for i := range 4 {
		createOwner(namespaces[i%2], 1000+i)
	}
	for _, o := range owners {
		WaitRouted(t, o.ns, o.name, "", 1)
	}
	proxy.SetRates(chaosFaults)
	for i, deadline := 0, time.Now().Add(20*time.Second); time.Now().Before(deadline); i++ {
		ns := namespaces[rng.Intn(2)]
		switch op := rng.Intn(5); {
		case op == 0:
			createOwner(ns, i)
		case op == 1:
			victim := owners[rng.Intn(len(owners))]
			if err := nets.SamplecrdV1().Networks(victim.ns).Delete(Ctx(t, 30*time.Second), victim.name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Fatalf("deleting %s/%s: %v", victim.ns, victim.name, err)
			}
			deleted[victim] = true
		default:
			victim := owners[rng.Intn(len(owners))]
			n, err := TryGetNetwork(t, victim.ns, victim.name)
			if err != nil || n.Status.Router == nil {
				continue // not routed yet, or gone: nothing to name
			}
			target := samplecrdv1.NeutronRef{ID: n.Status.Router.RouterID}
			if rng.Intn(2) == 0 {
				target = samplecrdv1.NeutronRef{Name: OwnerOf(clusterID, n).ResourceName()}
			}
			name := fmt.Sprintf("intruder-%d", i)
			CreateNetworkWithSpec(t, ns, name, samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("10.87.%d.0/24", i%250)},
				Router: &samplecrdv1.NetworkRouter{Existing: &target}})
			intruders = append(intruders, ref{ns, name})
		}
		// A few operations a second: enough to race the controller's passes, not so many
		// that the Neutron the parallel tests share slows down for them.
		time.Sleep(time.Duration(300+rng.Intn(500)) * time.Millisecond)
	}
	if len(intruders) == 0 {
		t.Fatalf("no Network named another's router in %d owners; the seed made too few", len(owners))
	}
	t.Logf("%d owners, %d intruders; faults %s", len(owners), len(intruders), proxy.Counts())
	proxy.SetRates(FaultRates{})

	driver := Neutron(t)
	for _, x := range intruders {
		n := WaitNetwork(t, x.ns, x.name, 90*time.Second, "refused: its router is another Network's, or gone", func(n *samplecrdv1.Network) error {
			if c := n.ReadyCondition(); c == nil || c.ObservedGeneration != n.Generation ||
				(c.Reason != samplecrdv1.ReasonRouterOfAnotherNetwork && c.Reason != samplecrdv1.ReasonRouterNotFound) {
				return fmt.Errorf("%s", DescribeReady(n))
			}
			return nil
		})
		if n.Status.Router != nil {
			t.Errorf("%s/%s, refused, has status.router %+v", x.ns, x.name, n.Status.Router)
		}
	}
	for _, o := range owners {
		if deleted[o] {
			continue
		}
		n := WaitRouted(t, o.ns, o.name, "", 1)
		wantInterfaces(t, driver, n.Status.Router.RouterID, n.Status.SubnetID)
	}

	for _, r := range append(owners, intruders...) {
		if err := nets.SamplecrdV1().Networks(r.ns).Delete(Ctx(t, 30*time.Second), r.name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("deleting %s/%s: %v", r.ns, r.name, err)
		}
	}
	for _, r := range append(owners, intruders...) {
		WaitGone(t, r.ns, r.name, 120*time.Second)
	}
	routers, err := driver.ListRouters(Ctx(t, 60*time.Second), neutron.Filter{Description: neutron.ClusterDescription(clusterID)})
	if err != nil {
		t.Fatalf("listing the cluster's routers: %v", err)
	}
	if len(routers) != 0 {
		t.Errorf("routers of the cluster outlive their Networks: %+v", routers)
	}
}
