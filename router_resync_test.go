package main

import (
	"slices"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// An interface removed by hand and the owned router's gateway moved by hand are drift: the
// resync says what it restores and queues the Network, with three lists for the project's
// routers, interfaces and external networks besides its two.
func TestNeutronResyncFindsRouterDrift(t *testing.T) {
	network := withRouter(newNetwork("routed", "10.8.3.0/24", ""), external("public"))
	f := newFixture(t, network)
	f.neutron.PutExternalNetwork(public)
	f.neutron.PutExternalNetwork(neutron.Network{ID: "ext-other", Name: "other"})
	f.startLeading()
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	network = f.refresh("default", "routed")
	if network.Status.Router == nil {
		t.Fatalf("status.router is empty after the create")
	}
	routerID := network.Status.Router.RouterID
	if err := f.neutron.RemoveRouterInterface(f.ctx, routerID, network.Status.SubnetID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.neutron.SetRouterGateway(f.ctx, routerID, neutron.GatewayRequest{NetworkID: "ext-other"}); err != nil {
		t.Fatal(err)
	}
	f.events()
	f.neutron.ClearCalls()

	f.controller.resync.Once(f.ctx)

	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets", "list routers", "list ports", "list networks"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Errorf("queue length = %d, want the drifted Network queued", n)
	}
	events := f.events()
	for _, want := range []string{"restoring router gateway from network ext-other to network ext-public", "is not attached to router " + routerID} {
		if !hasEvent(events, want) {
			t.Errorf("Events = %q, want a NeutronDrift saying %q", events, want)
		}
	}
}

// A restart over Ready routed Networks costs three lists for the project's routers besides
// the two, and nothing per Network.
func TestRestartWithRoutedNetworksCostsFiveListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		objects = append(objects, withRouterInStatus(withRouter(realizedNetwork(name, "10.60.0.0/24", ""), external("public"))))
	}
	f := newFixture(t, objects...)
	for _, o := range objects {
		putRoutedIn(f.neutron, ownerOf(o))
	}
	if err := f.controller.waitForStore(f.ctx); err != nil {
		t.Fatalf("filling the store: %v", err)
	}
	for _, o := range objects {
		if err := f.sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}
	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets", "list routers", "list ports", "list networks"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}

// A Network whose router was not found is looked at again at each resync, and becomes
// Ready once the router is there: RouterNotFound waits without a retry loop in between.
func TestRouterNotFoundIsLookedAtAgainAtResync(t *testing.T) {
	network := withRouter(newNetwork("waiting", "10.8.4.0/24", ""), existing("late-router"))
	f := newFixture(t, network)
	f.startLeading()
	if err := f.sync(network); !isTerminal(err) {
		t.Fatalf("sync = %v, want a terminal RouterNotFound", err)
	}
	network = f.refresh("default", "waiting")
	wantNotReady(samplecrdv1.ReasonRouterNotFound, `"late-router"`)(t, network)

	f.neutron.PutRouter(neutron.Router{ID: "late-router-id", Name: "late-router"})
	f.controller.resync.Once(f.ctx)
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Fatalf("queue length = %d, want the waiting Network queued", n)
	}
	if err := f.sync(network); err != nil {
		t.Fatalf("sync after the router appeared: %v", err)
	}
	if got := f.refresh("default", "waiting"); !got.IsReady() || got.Status.Router == nil || got.Status.Router.RouterID != "late-router-id" {
		t.Errorf("after the router appeared: %s, router %+v", readyCondition(t, got).Reason, got.Status.Router)
	}
}
