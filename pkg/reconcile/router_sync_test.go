package reconcile_test

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// The external network of these cases, as a cloud's admin makes it.

// routerCases attach a Network's subnets to a router: one the controller makes with its
// gateway on an external network, or one the project has. The router mark
// (neutron.RouterTag) rides on the create's tag call; deleting detaches the subnets, then
// deletes the owned router, then the network.
func routerCases() []syncCase {
	return []syncCase{{
		name:       "new routed Network: the external network looked up, network, tag, subnet, router with its gateway, interface",
		object:     WithRouter(NewNetwork("routed", "10.60.0.0/24", ""), External("public")),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { d.PutExternalNetwork(Public) },
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list networks", "create network", "tag network", "create subnet", "create router", "add router interface"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal RouterCreated", "Normal SubnetAttached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			routers := f.Neutron.Routers()
			if len(routers) != 1 || routers[0].Name != owner.ResourceName() || routers[0].Gateway == nil || routers[0].Gateway.NetworkID != Public.ID {
				t.Fatalf("routers %+v: want the owner's, with its gateway on %s", routers, Public.ID)
			}
			if net := ownNetwork(f.Neutron); !neutron.RouterMarked(net) {
				t.Errorf("network tags %v lack the router mark", net.Tags)
			}
			wantAttached(t, f.Neutron, routers[0].ID, 1)
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			r := got.Status.Router
			if r == nil || !r.Owned || len(r.SubnetIDs) != 1 || r.SubnetIDs[0] != got.Status.SubnetID || len(r.ExternalGatewayAddresses) != 1 {
				t.Errorf("status.router = %+v, want the owned router with the subnet attached and a gateway address", r)
			}
		},
	}, {
		name:    "routed Network in step with Neutron: nothing at all, the routers known from the fill",
		object:  WithRouterInStatus(WithRouter(RealizedNetwork("steady", "10.60.0.0/24", ""), External("public"))),
		neutron: putRouted(true, true),
		want:    succeeds,
	}, {
		name:       "an interface removed by hand: attached again",
		object:     WithRouterInStatus(WithRouter(RealizedNetwork("detached", "10.60.0.0/24", ""), External("public"))),
		neutron:    putRouted(true, false),
		want:       succeeds,
		wantCalls:  []string{"add router interface"},
		wantEvents: []string{"Normal SubnetAttached"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "router-of-detached", 1)
		},
	}, {
		name:       "a routed subnet's gateway changed in the spec: the interface goes, the subnet changes, the interface comes back on the new gateway",
		object:     WithGeneration(WithRouterInStatus(WithRouter(RealizedNetwork("regated", "10.60.0.0/24", "10.60.0.5"), External("public"))), 2),
		neutron:    putRouted(true, true),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"remove router interface", "update subnet", "add router interface"},
		wantEvents: []string{"Normal SubnetDetached", "Normal GatewayUpdated", "Normal SubnetAttached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "router-of-regated", 1)
		},
	}, {
		name:   "the owned router's gateway removed by hand: restored",
		object: WithRouterInStatus(WithRouter(RealizedNetwork("gateless", "10.60.0.0/24", ""), External("public"))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRouted(true, true)(d, owner)
			r := d.Routers()[0]
			r.Gateway = nil
			d.PutRouter(r)
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"set router gateway"},
		wantEvents: []string{"Normal RouterUpdated"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if r := f.Neutron.Routers()[0]; r.Gateway == nil || r.Gateway.NetworkID != Public.ID {
				t.Errorf("router gateway = %+v, want on %s", r.Gateway, Public.ID)
			}
		},
	}, {
		name:       "spec.router removed: interface detached, router deleted, then the mark",
		object:     WithGeneration(WithRouterInStatus(RealizedNetwork("unrouted", "10.60.0.0/24", "")), 2),
		neutron:    putRouted(true, true),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"remove router interface", "delete router", "tag network"},
		wantEvents: []string{"Normal SubnetDetached", "Normal RouterDeleted", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if routers := f.Neutron.Routers(); len(routers) != 0 {
				t.Errorf("routers left: %+v", routers)
			}
			if net := ownNetwork(f.Neutron); neutron.RouterMarked(net) {
				t.Errorf("network tags %v keep the router mark", net.Tags)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if got.Status.Router != nil {
				t.Errorf("status.router = %+v, want none", got.Status.Router)
			}
		},
	}, {
		name:   "new Network on the project's router: looked up by name, only the interface is made",
		object: WithRouter(NewNetwork("tenant", "10.61.0.0/24", ""), Existing("tenant-router")),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			d.PutRouter(neutron.Router{ID: "tenant-router-id", Name: "tenant-router"})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list routers", "create network", "tag network", "create subnet", "add router interface"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal SubnetAttached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if net := ownNetwork(f.Neutron); !slices.Equal(neutron.MarkedRouterIDs(net), []string{"tenant-router-id"}) {
				t.Errorf("network tags %v do not name the project's router (from the create's tag call)", net.Tags)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if r := got.Status.Router; r == nil || r.Owned || r.RouterID != "tenant-router-id" || len(r.SubnetIDs) != 1 {
				t.Errorf("status.router = %+v, want tenant-router-id, not owned, one subnet", r)
			}
		},
	}, {
		name:       "the project's router is gone: RouterNotFound, nothing made",
		object:     WithRouter(NewNetwork("orphaned", "10.61.0.0/24", ""), Existing("gone-router")),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list routers"},
		wantEvents: []string{"Warning RouterNotFound"},
		wantObject: WantNotReady(samplecrdv1.ReasonRouterNotFound, `spec.router.existing names router "gone-router"`),
	}, {
		name:   "enableSNAT refused by Neutron's policy: terminal InvalidSpec naming the field, no router",
		object: WithRouter(NewNetwork("snat", "10.62.0.0/24", ""), func(r *samplecrdv1.NetworkRouter) { External("public")(r); r.EnableSNAT = ptr.To(false) }),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			d.PutExternalNetwork(Public)
			d.DenySNAT(true)
		},
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list networks", "create network", "tag network", "create subnet", "create router"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, "spec.router.enableSNAT: this cloud's Neutron policy does not let the project's role set it"),
	}, {
		name:       "a router create whose reply was lost: the retry lists the routers and finds it, nothing made twice",
		object:     WithRouter(NewNetwork("lost", "10.63.0.0/24", ""), External("public")),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { d.PutExternalNetwork(Public) },
		before:     loseReply(&neutron.Error{Op: "create router", Kind: neutron.KindUnavailable, Code: 502, Message: "Bad Gateway"}),
		want:       retries,
		retry:      succeeds,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls: []string{"list networks", "create network", "tag network", "create subnet", "create router",
			"list routers", "list ports", "add router interface"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Warning NeutronUnavailable", "Normal SubnetAttached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if routers := f.Neutron.Routers(); len(routers) != 1 {
				t.Errorf("routers %+v, want one", routers)
			}
		},
	}, {
		name:        "deleting a routed Network: interface detached, router deleted, then the network",
		object:      Deleting(WithRouterInStatus(WithRouter(RealizedNetwork("doomed", "10.60.0.0/24", ""), External("public")))),
		neutron:     putRouted(true, true),
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"list ports", "remove router interface", "delete router", "delete network"},
		wantEvents:  []string{"Normal NeutronDeleted"},
		wantNeutron: wantOnlyPublic,
	}, {
		name:   "deleting a routed Network with a port of someone else on it: SubnetInUse naming the port, nothing detached or deleted",
		object: Deleting(WithRouterInStatus(WithRouter(RealizedNetwork("held", "10.60.0.0/24", ""), External("public")))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRouted(true, true)(d, owner)
			d.PutPort(neutron.Port{ID: "vm-port", NetworkID: "net-of-held", DeviceOwner: "compute:nova", DeviceID: "vm-1",
				FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-held", IPAddress: "10.60.0.7"}}})
		},
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list ports"},
		wantEvents: []string{"Warning SubnetInUse"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "router-of-held", 1)
		},
		wantObject: WantNotReady(samplecrdv1.ReasonSubnetInUse, "nothing was detached or deleted yet. Ports using it: vm-port (device owner compute:nova, device vm-1)"),
	}, {
		name:       "Retain of a routed Network: the router keeps its gateway and interface, released of its name and description first",
		object:     Deleting(withDeletionPolicy(WithRouterInStatus(WithRouter(RealizedNetwork("kept", "10.60.0.0/24", ""), External("public"))), samplecrdv1.DeletionPolicyRetain)),
		neutron:    putRouted(true, true),
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"relabel router", "relabel network", "relabel subnet", "tag network"},
		wantEvents: []string{"Normal NeutronRetained"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			r := f.Neutron.Routers()
			if len(r) != 1 || r[0].Name != "default/kept" || r[0].Description != "" || r[0].Gateway == nil {
				t.Errorf("routers %+v, want the router kept as default/kept, without description, with its gateway", r)
			}
			wantAttached(t, f.Neutron, "router-of-kept", 1)
			if net := ownNetwork(f.Neutron); neutron.RouterMarked(net) {
				t.Errorf("the released network keeps the router mark: %v", net.Tags)
			}
		},
	}, {
		name:       "deleting a Network attached to the project's router by a pass whose status write failed: the tags name the router, its interface goes",
		object:     Deleting(WithRouter(RealizedNetwork("unrecorded", "10.61.0.0/24", ""), Existing("tenant-router"))),
		neutron:    putOnTenantRouter("unrecorded"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"list ports", "remove router interface", "delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
	}, {
		name:       "spec.router removed after an attach status never recorded: the interface goes, then the router's name leaves the tags",
		object:     WithGeneration(RealizedNetwork("unrecorded", "10.61.0.0/24", ""), 2),
		neutron:    putOnTenantRouter("unrecorded"),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"remove router interface", "tag network"},
		wantEvents: []string{"Normal SubnetDetached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "tenant-router-id", 0)
			if net := ownNetwork(f.Neutron); neutron.RouterMarked(net) || len(neutron.MarkedRouterIDs(net)) != 0 {
				t.Errorf("network tags %v keep router marks", net.Tags)
			}
		},
	}, {
		name:   "deleting a Network on the project's router: only the interface goes, the router stays",
		object: Deleting(withExistingRouterInStatus(WithRouter(RealizedNetwork("tenant-doomed", "10.61.0.0/24", ""), Existing("tenant-router")))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealizedWith("10.61.0.0/24", nil)(d, owner)
			markNetwork(d, neutron.RouterTag)
			d.PutRouter(neutron.Router{ID: "tenant-router-id", Name: "tenant-router"})
			d.PutPort(neutron.Port{ID: "if-1", NetworkID: "net-of-tenant-doomed", DeviceOwner: neutron.InterfaceOwner, DeviceID: "tenant-router-id",
				FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-tenant-doomed", IPAddress: "10.61.0.1"}}})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"list ports", "remove router interface", "delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if routers := f.Neutron.Routers(); len(routers) != 1 || routers[0].ID != "tenant-router-id" {
				t.Errorf("routers %+v, want the project's router kept", routers)
			}
		},
	}}
}

func withExistingRouterInStatus(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Status.Router = &samplecrdv1.RouterStatus{RouterID: "tenant-router-id", SubnetIDs: []string{n.Status.SubnetID}}
	return n
}

// putRouted is PutRealized of 10.60.0.0/24 with the router mark, the external network
// Public and the owner's router with its gateway on it (when router), its subnet attached
// (when attached).
func putRouted(router, attached bool) func(*neutronfake.Driver, neutron.Owner) {
	return func(d *neutronfake.Driver, owner neutron.Owner) {
		PutRealizedWith("10.60.0.0/24", nil)(d, owner)
		markNetworkOf(d, owner, neutron.RouterTag)
		d.PutExternalNetwork(Public)
		if !router {
			return
		}
		routerID := "router-of-" + owner.Name
		d.PutRouter(neutron.Router{ID: routerID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID),
			Gateway: &neutron.GatewayInfo{NetworkID: Public.ID, FixedIPs: []neutron.FixedIP{{IPAddress: "203.0.113.20"}}}})
		if attached {
			d.PutPort(neutron.Port{ID: "if-of-" + owner.Name, NetworkID: "net-of-" + owner.Name, DeviceOwner: neutron.InterfaceOwner, DeviceID: routerID,
				FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-" + owner.Name, IPAddress: "10.60.0.1"}}})
		}
	}
}

// markNetwork adds tag to the one network of the cluster the fake holds.
func markNetwork(d *neutronfake.Driver, tag string) {
	net := ownNetwork(d)
	net.Tags = append(net.Tags, tag)
	d.PutNetwork(net)
}

// markNetworkOf adds tag to the owner's network, net-of-<name>.
func markNetworkOf(d *neutronfake.Driver, owner neutron.Owner, tag string) {
	nets := d.Networks()
	net := nets[slices.IndexFunc(nets, func(n neutron.Network) bool { return n.ID == "net-of-"+owner.Name })]
	net.Tags = append(net.Tags, tag)
	d.PutNetwork(net)
}

// putRoutedIn is putRouted(true, true) for one of several owners in d.
func putRoutedIn(d *neutronfake.Driver, owner neutron.Owner) { putRouted(true, true)(d, owner) }

// ownNetwork returns the one network of the fake that is not external.
func ownNetwork(d *neutronfake.Driver) neutron.Network {
	nets := slices.DeleteFunc(d.Networks(), func(n neutron.Network) bool { return n.ID == Public.ID })
	if len(nets) != 1 {
		panic("want exactly one network besides the external one")
	}
	return nets[0]
}

func wantAttached(t *testing.T, d *neutronfake.Driver, routerID string, n int) {
	t.Helper()
	var got []string
	for _, p := range d.Ports() {
		if p.DeviceID == routerID && p.DeviceOwner == neutron.InterfaceOwner {
			got = append(got, p.ID)
		}
	}
	if len(got) != n {
		t.Errorf("router %s has interfaces %s, want %d", routerID, strings.Join(got, ","), n)
	}
}

// wantOnlyPublic checks that the fake holds nothing but the external network.
func wantOnlyPublic(t *testing.T, f *Fixture, _ neutron.Owner) {
	t.Helper()
	if nets, routers, ports := f.Neutron.Networks(), f.Neutron.Routers(), f.Neutron.Ports(); len(nets) != 1 || nets[0].ID != Public.ID ||
		len(routers) != 0 || len(ports) != 0 || len(f.Neutron.Subnets()) != 0 {
		t.Errorf("Neutron holds networks %+v, routers %+v, ports %+v; want only %s", nets, routers, ports, Public.ID)
	}
}

// putOnTenantRouter is PutRealized of 10.61.0.0/24 for the Network name, attached to the
// project's router tenant-router, with the tags naming it: what an attach leaves when the
// status write after it fails.
func putOnTenantRouter(name string) func(*neutronfake.Driver, neutron.Owner) {
	return func(d *neutronfake.Driver, owner neutron.Owner) {
		PutRealizedWith("10.61.0.0/24", nil)(d, owner)
		markNetwork(d, neutron.RouterTag)
		markNetwork(d, "k8s-router-id=tenant-router-id")
		d.PutRouter(neutron.Router{ID: "tenant-router-id", Name: "tenant-router"})
		d.PutPort(neutron.Port{ID: "if-1", NetworkID: "net-of-" + name, DeviceOwner: neutron.InterfaceOwner, DeviceID: "tenant-router-id",
			FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-" + name, IPAddress: "10.61.0.1"}}})
	}
}
