package resync

import (
	"slices"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// An interface removed by hand and the owned router's gateway moved by hand are drift: the
// resync says what it restores and queues the Network, with three lists for the project's
// routers, interfaces and external networks besides its two.
func TestNeutronResyncFindsRouterDrift(t *testing.T) {
	network := networktest.WithRouter(networktest.NewNetwork("routed", "10.8.3.0/24", ""), networktest.External("public"))
	f := newFixture(t, network)
	f.Neutron.PutExternalNetwork(networktest.Public)
	f.Neutron.PutExternalNetwork(neutron.Network{ID: "ext-other", Name: "other"})
	f.StartLeading()
	if err := f.Sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	network = f.Refresh("default", "routed")
	if network.Status.Router == nil {
		t.Fatalf("status.router is empty after the create")
	}
	routerID := network.Status.Router.RouterID
	if err := f.Neutron.RemoveRouterInterface(f.Ctx, routerID, network.Status.SubnetID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Neutron.SetRouterGateway(f.Ctx, routerID, neutron.GatewayRequest{NetworkID: "ext-other"}); err != nil {
		t.Fatal(err)
	}
	f.Events()
	f.Neutron.ClearCalls()

	f.checkAllDueAt(time.Now())

	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets", "list routers", "list ports", "list networks"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := len(f.queued); n != 1 {
		t.Errorf("queue length = %d, want the drifted Network queued", n)
	}
	events := f.Events()
	for _, want := range []string{"restoring router gateway from network ext-other to network ext-public", "is not attached to router " + routerID} {
		if !networktest.HasEvent(events, want) {
			t.Errorf("Events = %q, want a NeutronDrift saying %q", events, want)
		}
	}
}

// A Network whose router was not found is looked at again at each resync, and becomes
// Ready once the router is there: RouterNotFound waits without a retry loop in between.
func TestRouterNotFoundIsLookedAtAgainAtResync(t *testing.T) {
	network := networktest.WithRouter(networktest.NewNetwork("waiting", "10.8.4.0/24", ""), networktest.Existing("late-router"))
	f := newFixture(t, network)
	f.StartLeading()
	if err := f.Sync(network); !networktest.IsTerminal(err) {
		t.Fatalf("sync = %v, want a terminal RouterNotFound", err)
	}
	network = f.Refresh("default", "waiting")
	networktest.WantNotReady(samplecrdv1.ReasonRouterNotFound, `"late-router"`)(t, network)

	f.Neutron.PutRouter(neutron.Router{ID: "late-router-id", Name: "late-router"})
	f.resync.Once(f.Ctx)
	if n := len(f.queued); n != 1 {
		t.Fatalf("queue length = %d, want the waiting Network queued", n)
	}
	if err := f.Sync(network); err != nil {
		t.Fatalf("sync after the router appeared: %v", err)
	}
	if got := f.Refresh("default", "waiting"); !got.IsReady() || got.Status.Router == nil || got.Status.Router.RouterID != "late-router-id" {
		t.Errorf("after the router appeared: %s, router %+v", networktest.ReadyCondition(t, got).Reason, got.Status.Router)
	}
}
