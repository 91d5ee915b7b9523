//go:build e2e

package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// TestChaosUnrecordedInterface replays, without chance, what TestChaos met: a subnet
// attached to the project's router (spec.router.existing) by a pass whose status write
// then fails, so that status.router never names the router. Here the write fails because
// the Network changed while the attach was on its way (the proxy holds it back for a few
// seconds): it is deleted, or its router is removed from the spec. The controller must
// still detach the subnet from the router: the Network goes (its network deleted) in the
// first case, and in the second the network keeps no interface on a router the spec no
// longer names. A crash between the attach and the status write, or a reply lost on the
// way back, leaves the same state.
func TestChaosUnrecordedInterface(t *testing.T) {
	t.Parallel()
	for _, change := range []string{"delete", "router-removed"} {
		t.Run(change, func(t *testing.T) {
			ns, clusterID := NewNamespace(t), NewClusterID(t)
			CleanupClusterRouters(t, clusterID)
			router := CreateAdminRouter(t, "unrecorded-"+clusterID)
			GrantPowers(t, ns, samplecrdv1.IdentityAllow{ExistingRouters: []samplecrdv1.NeutronRef{{Name: router.Name}}})
			proxy := StartFaultProxy(t, NeutronEndpoint, 1, FaultRates{})
			held := proxy.Hold(3*time.Second, func(r *http.Request, _ []byte) bool {
				return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/add_router_interface")
			})
			StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID,
				Args: []string{"-neutron-endpoint=" + proxy.URL()}})
			_, nets := Clients(t)

			CreateNetworkWithSpec(t, ns, "unrecorded", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.87.0.0/24"},
				Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: router.Name}}})
			waitHeld(t, held.Arrived, "the attach to reach the proxy")
			if change == "delete" {
				DeleteNetwork(t, ns, "unrecorded")
			} else {
				UpdateNetworkSpec(t, ns, "unrecorded", func(s *samplecrdv1.NetworkSpec) { s.Router = nil })
			}
			waitHeld(t, held.Answered, "Neutron to answer the attach")

			if change == "delete" {
				WaitGone(t, ns, "unrecorded", 60*time.Second)
			}
			audit, _ := WaitAuditConverging(t, nets, time.Minute, clusterID, ns)
			if audit.Interfaces != 0 {
				t.Errorf("after the %s: %s", change, audit.Counts())
			}
		})
	}
}

// waitHeld waits for a held request's signal, at most a minute.
func waitHeld(t *testing.T, ch <-chan time.Time, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("waited a minute for %s", what)
	}
}
