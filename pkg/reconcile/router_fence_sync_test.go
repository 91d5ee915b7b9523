package reconcile_test

import (
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// routerFenceCases keep a router the controller made for a Network that Network's alone:
// another Network naming it in spec.router.existing is refused, and nothing attached to
// it holds its owner's delete up.
func routerFenceCases() []syncCase {
	return []syncCase{{
		name:       "spec.router.existing names another Network's router by its name: RouterOfAnotherNetwork, nothing made, nothing attached",
		object:     WithRouter(NewNetwork("intruder", "10.64.0.0/24", ""), Existing(victim.ResourceName())),
		neutron:    putVictimRouter,
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list routers"},
		wantEvents: []string{"Warning RouterOfAnotherNetwork"},
		wantObject: WantNotReady(samplecrdv1.ReasonRouterOfAnotherNetwork, "which the controller made for a Network: only that Network attaches to it"),
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if nets := f.Neutron.Networks(); len(nets) != 1 {
				t.Errorf("networks %+v, want only the victim's", nets)
			}
			wantAttached(t, f.Neutron, "0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f", 1)
		},
	}, {
		name:       "spec.router.existing names another Network's router by its ID: RouterOfAnotherNetwork, nothing made",
		object:     WithRouter(NewNetwork("intruder", "10.64.0.0/24", ""), existingID("0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f")),
		neutron:    putVictimRouter,
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list routers"},
		wantEvents: []string{"Warning RouterOfAnotherNetwork"},
		wantObject: WantNotReady(samplecrdv1.ReasonRouterOfAnotherNetwork, "0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f"),
	}, {
		name:   "a Network already attached to another Network's router (by an older version) is refused on its next pass, the router known from the fill",
		object: withExistingRouterInStatus(WithRouter(RealizedNetwork("intruder", "10.61.0.0/24", ""), existingID("0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f"))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putOnTenantRouter("intruder")(d, owner)
			r := d.Routers()[0]
			r.ID, r.Name, r.Description = "0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f", victim.ResourceName(), neutron.ClusterDescription(owner.ClusterID)
			d.PutRouter(r)
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning RouterOfAnotherNetwork"},
		wantObject: WantNotReady(samplecrdv1.ReasonRouterOfAnotherNetwork, "name a router of the project the controller did not make"),
	}, {
		name:   "deleting a routed Network whose router has another network's subnet attached: that interface goes too, then the router, then the network",
		object: Deleting(WithRouterInStatus(WithRouter(RealizedNetwork("victim", "10.60.0.0/24", ""), External("public")))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRouted(true, true)(d, owner)
			d.PutNetwork(neutron.Network{ID: "net-of-intruder", ProjectID: ownNetwork(d).ProjectID})
			d.PutPort(neutron.Port{ID: "if-of-intruder", NetworkID: "net-of-intruder", DeviceOwner: neutron.InterfaceOwner, DeviceID: "router-of-victim",
				FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-intruder", IPAddress: "10.64.0.1"}}})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls: []string{"list ports", "remove router interface", "delete router", "list ports", "remove router interface",
			"delete router", "delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if routers, ports := f.Neutron.Routers(), f.Neutron.Ports(); len(routers) != 0 || len(ports) != 0 {
				t.Errorf("routers %+v and ports %+v left, want none", routers, ports)
			}
		},
	}}
}

func existingID(id string) func(*samplecrdv1.NetworkRouter) {
	return func(r *samplecrdv1.NetworkRouter) { r.Existing = &samplecrdv1.NeutronRef{ID: id} }
}

// victim is the owner of a routed Network in another namespace of the same project.
var victim = neutron.Owner{Namespace: "team-b", Name: "victim", UID: "0b7d3c9e-1f2a-4e5d-8c6b-7a9f0e1d2c3b"}

// putVictimRouter puts victim's network, its router (made by the controller, ID
// 0e2a1f6c-...) and its interface: what another namespace's routed Network leaves.
func putVictimRouter(d *neutronfake.Driver, owner neutron.Owner) {
	v := victim
	v.ClusterID = owner.ClusterID
	d.PutNetwork(neutron.Network{ID: "net-of-victim", Name: v.ResourceName(), Description: neutron.ClusterDescription(v.ClusterID), Tags: v.Tags()})
	d.PutRouter(neutron.Router{ID: "0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f", Name: v.ResourceName(), Description: neutron.ClusterDescription(v.ClusterID)})
	d.PutPort(neutron.Port{ID: "if-of-victim", NetworkID: "net-of-victim", DeviceOwner: neutron.InterfaceOwner, DeviceID: "0e2a1f6c-5b7d-4c3e-9a8f-1d2c3b4a5e6f",
		FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-victim", IPAddress: "10.60.0.1"}}})
}
