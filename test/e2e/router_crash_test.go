//go:build e2e

package e2e

import (
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A controller killed between any two steps of a routed Network's life, as the member user
// of project k8s: after the router's create (before the interface), after the interfaces
// are detached (before the router's delete), after the router's delete (before the
// network's). The next controller finishes the work: one router, never two, and after the
// delete nothing of the Network left.
func TestRouterCrashPoints(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	member := ks.DriverAs(t, MemberCloud)
	for _, point := range []string{"router-created", "interfaces-detached", "routers-deleted"} {
		t.Run(point, func(t *testing.T) {
			ns, clusterID := NewNamespace(t), NewClusterID(t)
			opts := func(env ...string) ControllerOptions {
				return ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID,
					Args: ks.ControllerArgs(MemberCloud), Env: append(ks.ControllerEnv(), env...)}
			}
			crash := func() {
				t.Helper()
				c := StartController(t, opts("NETWORK_CONTROLLER_CRASH_AT="+point))
				if code, err := c.Wait(90 * time.Second); err != nil || code != 3 {
					t.Fatalf("controller crashing at %s: exit %d, %v\n%s", point, code, err, LastLines(c.Logs(), 30))
				}
			}
			ours := neutron.Filter{Description: neutron.ClusterDescription(clusterID)}
			CreateNetworkWithSpec(t, ns, "crashy", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.0.0/24"},
				Router: &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}}})

			if point == "router-created" {
				crash()
				if got := RoutersOf(t, member, ours); len(got) != 1 {
					t.Fatalf("after the crash at %s: routers %+v, want the one made", point, got)
				}
			}
			ctrl := StartController(t, opts())
			n := WaitRouted(t, ns, "crashy", "", 1)
			if got := RoutersOf(t, member, ours); len(got) != 1 || got[0].ID != n.Status.Router.RouterID {
				t.Fatalf("routers %+v, want exactly status's %s", got, n.Status.Router.RouterID)
			}
			if point == "router-created" {
				ctrl.Stop()
				DeleteNetwork(t, ns, "crashy")
				StartController(t, opts())
			} else {
				ctrl.Stop()
				DeleteNetwork(t, ns, "crashy")
				crash()
				routers := RoutersOf(t, member, ours)
				if point == "interfaces-detached" && (len(routers) != 1 || len(AttachedOn(t, member, n.Status.NetworkID)) != 0) {
					t.Errorf("after the crash at %s: routers %+v, interfaces %v; want the router without interfaces", point, routers, AttachedOn(t, member, n.Status.NetworkID))
				}
				if point == "routers-deleted" && len(routers) != 0 {
					t.Errorf("after the crash at %s: routers %+v, want none", point, routers)
				}
				StartController(t, opts())
			}
			WaitGone(t, ns, "crashy", 90*time.Second)
			if got := RoutersOf(t, member, ours); len(got) != 0 {
				t.Errorf("routers left after the delete: %+v", got)
			}
			if nets, _ := member.ListNetworks(Ctx(t, 90*time.Second), neutron.Filter{IDs: []string{n.Status.NetworkID}}); len(nets) != 0 {
				t.Errorf("network %s left after the delete", n.Status.NetworkID)
			}
		})
	}
}
