package neutron

import (
	"slices"
	"testing"
)

func TestDiffRouter(t *testing.T) {
	owner := Owner{ClusterID: "c", Namespace: "ns", Name: "n", UID: "u"}
	net := Network{ID: "net", Name: owner.ResourceName(), Tags: append(owner.Tags(), RouterTag)}
	subnet := func(item, id string) Subnet {
		return Subnet{ID: id, NetworkID: "net", Name: owner.SubnetName(item), CIDR: "10.0." + id + ".0/24"}
	}
	iface := func(routerID string, subnetIDs ...string) Port {
		p := Port{ID: "p-" + routerID, NetworkID: "net", DeviceOwner: InterfaceOwner, DeviceID: routerID}
		for _, s := range subnetIDs {
			p.FixedIPs = append(p.FixedIPs, FixedIP{SubnetID: s})
		}
		return p
	}
	want := func(r *DesiredRouter, items ...string) Desired {
		d := Desired{Router: r}
		for _, item := range items {
			d.Subnets = append(d.Subnets, DesiredSubnet{Item: item, CIDR: "10.0." + map[string]string{"a": "1", "b": "2"}[item] + ".0/24"})
		}
		return d
	}
	owned := Router{ID: "owned", Name: owner.ResourceName(), Description: ClusterDescription("c"), Gateway: &GatewayInfo{NetworkID: "ext"}}
	existing := Router{ID: "theirs", Name: "theirs"}
	got := func(routers RouterView) Observed {
		routers.Known = true
		return Observed{Network: &net, Subnets: map[string]Subnet{"a": subnet("a", "1"), "b": subnet("b", "2")}, Routers: routers}
	}

	for _, c := range []struct {
		name  string
		want  Desired
		got   Observed
		check func(t *testing.T, rc RouterChanges)
	}{{
		name: "from the project's router to an owned one: the old interfaces go, the router is made, both attached",
		want: want(&DesiredRouter{External: &Ref{Name: "public"}}, "a", "b"),
		got:  got(RouterView{Interfaces: []Port{iface("theirs", "1", "2")}, Recorded: "theirs", ExternalNetworkID: "ext"}),
		check: func(t *testing.T, rc RouterChanges) {
			if !rc.Create || !slices.Equal(rc.Attach, []string{"a", "b"}) || len(rc.Detach) != 2 || rc.Detach[0].RouterID != "theirs" {
				t.Errorf("changes %+v", rc)
			}
		},
	}, {
		name: "router.subnets narrowed to b: a detached from the owned router, b kept",
		want: want(&DesiredRouter{External: &Ref{Name: "public"}, Items: []string{"b"}}, "a", "b"),
		got:  got(RouterView{Owned: []Router{owned}, Interfaces: []Port{iface("owned", "1", "2")}, ExternalNetworkID: "ext"}),
		check: func(t *testing.T, rc RouterChanges) {
			if rc.Create || rc.Gateway != nil || len(rc.Attach) != 0 || !slices.Equal(rc.Detach, []Interface{{RouterID: "owned", SubnetID: "1"}}) {
				t.Errorf("changes %+v", rc)
			}
		},
	}, {
		name: "item a removed from the spec: its interface goes before its subnet",
		want: want(&DesiredRouter{Existing: &Ref{Name: "theirs"}}, "b"),
		got: func() Observed {
			o := got(RouterView{Interfaces: []Port{iface("theirs", "1", "2")}, Existing: &existing})
			return o
		}(),
		check: func(t *testing.T, rc RouterChanges) {
			if rc.Create || len(rc.Delete) != 0 || !slices.Equal(rc.Detach, []Interface{{RouterID: "theirs", SubnetID: "1"}}) || len(rc.Attach) != 0 {
				t.Errorf("changes %+v", rc)
			}
		},
	}, {
		name: "router removed from the spec: every interface of the owned router, then the router, then the mark",
		want: want(nil, "a", "b"),
		got:  got(RouterView{Owned: []Router{owned}, Interfaces: []Port{iface("owned", "1", "2"), iface("someone-elses", "1")}}),
		check: func(t *testing.T, rc RouterChanges) {
			if len(rc.Detach) != 2 || !slices.Equal(rc.Delete, []Router{owned}) || !rc.Unmark {
				t.Errorf("changes %+v (another router's interface is not the controller's)", rc)
			}
		},
	}, {
		name: "the owned router's gateway moved by hand: set back",
		want: want(&DesiredRouter{External: &Ref{Name: "public"}}, "a"),
		got:  got(RouterView{Owned: []Router{owned}, Interfaces: []Port{iface("owned", "1")}, ExternalNetworkID: "ext-2"}),
		check: func(t *testing.T, rc RouterChanges) {
			if rc.Gateway == nil || rc.Gateway.NetworkID != "ext-2" || rc.GatewayDiff == nil {
				t.Errorf("changes %+v", rc)
			}
		},
	}} {
		t.Run(c.name, func(t *testing.T) { c.check(t, Diff(c.want, c.got).Router) })
	}
}
