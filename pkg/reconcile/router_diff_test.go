package reconcile

import (
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func TestDiffRouter(t *testing.T) {
	owner := neutron.Owner{ClusterID: "c", Namespace: "ns", Name: "n", UID: "u"}
	net := neutron.Network{ID: "net", Name: owner.ResourceName(), Tags: append(owner.Tags(), neutron.RouterTag)}
	subnet := func(item, id string) neutron.Subnet {
		return neutron.Subnet{ID: id, NetworkID: "net", Name: owner.SubnetName(item), CIDR: "10.0." + id + ".0/24"}
	}
	iface := func(routerID string, subnetIDs ...string) neutron.Port {
		p := neutron.Port{ID: "p-" + routerID, NetworkID: "net", DeviceOwner: neutron.InterfaceOwner, DeviceID: routerID}
		for _, s := range subnetIDs {
			p.FixedIPs = append(p.FixedIPs, neutron.FixedIP{SubnetID: s})
		}
		return p
	}
	want := func(r *neutron.DesiredRouter, items ...string) neutron.Desired {
		d := neutron.Desired{Router: r}
		for _, item := range items {
			d.Subnets = append(d.Subnets, neutron.DesiredSubnet{Item: item, CIDR: "10.0." + map[string]string{"a": "1", "b": "2"}[item] + ".0/24"})
		}
		return d
	}
	owned := neutron.Router{ID: "owned", Name: owner.ResourceName(), Description: neutron.ClusterDescription("c"), Gateway: &neutron.GatewayInfo{NetworkID: "ext"}}
	existing := neutron.Router{ID: "theirs", Name: "theirs"}
	got := func(routers neutron.RouterView) neutron.Observed {
		routers.Known = true
		return neutron.Observed{Network: &net, Subnets: map[string]neutron.Subnet{"a": subnet("a", "1"), "b": subnet("b", "2")}, Routers: routers}
	}

	for _, c := range []struct {
		name  string
		want  neutron.Desired
		got   neutron.Observed
		check func(t *testing.T, rc neutron.RouterChanges)
	}{{
		name: "from the project's router to an owned one: the old interfaces go, the router is made, both attached",
		want: want(&neutron.DesiredRouter{External: &neutron.Ref{Name: "public"}}, "a", "b"),
		got:  got(neutron.RouterView{Interfaces: []neutron.Port{iface("theirs", "1", "2")}, Recorded: "theirs", ExternalNetworkID: "ext"}),
		check: func(t *testing.T, rc neutron.RouterChanges) {
			if !rc.Create || !slices.Equal(rc.Attach, []string{"a", "b"}) || len(rc.Detach) != 2 || rc.Detach[0].RouterID != "theirs" {
				t.Errorf("changes %+v", rc)
			}
		},
	}, {
		name: "router.subnets narrowed to b: a detached from the owned router, b kept",
		want: want(&neutron.DesiredRouter{External: &neutron.Ref{Name: "public"}, Items: []string{"b"}}, "a", "b"),
		got:  got(neutron.RouterView{Owned: []neutron.Router{owned}, Interfaces: []neutron.Port{iface("owned", "1", "2")}, ExternalNetworkID: "ext"}),
		check: func(t *testing.T, rc neutron.RouterChanges) {
			if rc.Create || rc.Gateway != nil || len(rc.Attach) != 0 || !slices.Equal(rc.Detach, []neutron.Interface{{RouterID: "owned", SubnetID: "1"}}) {
				t.Errorf("changes %+v", rc)
			}
		},
	}, {
		name: "item a removed from the spec: its interface goes before its subnet",
		want: want(&neutron.DesiredRouter{Existing: &neutron.Ref{Name: "theirs"}}, "b"),
		got: func() neutron.Observed {
			o := got(neutron.RouterView{Interfaces: []neutron.Port{iface("theirs", "1", "2")}, Existing: &existing})
			return o
		}(),
		check: func(t *testing.T, rc neutron.RouterChanges) {
			if rc.Create || len(rc.Delete) != 0 || !slices.Equal(rc.Detach, []neutron.Interface{{RouterID: "theirs", SubnetID: "1"}}) || len(rc.Attach) != 0 {
				t.Errorf("changes %+v", rc)
			}
		},
	}, {
		name: "router removed from the spec: every interface of the owned router, then the router, then the mark",
		want: want(nil, "a", "b"),
		got:  got(neutron.RouterView{Owned: []neutron.Router{owned}, Interfaces: []neutron.Port{iface("owned", "1", "2"), iface("someone-elses", "1")}}),
		check: func(t *testing.T, rc neutron.RouterChanges) {
			if len(rc.Detach) != 2 || !slices.Equal(rc.Delete, []neutron.Router{owned}) || !rc.Unmark {
				t.Errorf("changes %+v (another router's interface is not the controller's)", rc)
			}
		},
	}, {
		name: "the owned router's gateway moved by hand: set back",
		want: want(&neutron.DesiredRouter{External: &neutron.Ref{Name: "public"}}, "a"),
		got:  got(neutron.RouterView{Owned: []neutron.Router{owned}, Interfaces: []neutron.Port{iface("owned", "1")}, ExternalNetworkID: "ext-2"}),
		check: func(t *testing.T, rc neutron.RouterChanges) {
			if rc.Gateway == nil || rc.Gateway.NetworkID != "ext-2" || rc.GatewayDiff == nil {
				t.Errorf("changes %+v", rc)
			}
		},
	}} {
		t.Run(c.name, func(t *testing.T) { c.check(t, Diff(c.want, c.got).Router) })
	}
}
