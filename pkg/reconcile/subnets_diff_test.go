package reconcile

import (
	"reflect"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func TestDiff(t *testing.T) {
	gw, otherGW := neutron.GatewayIP("10.0.0.1"), "10.0.0.9"
	pools := []neutron.Pool{{Start: "10.0.0.2", End: "10.0.0.254"}}
	want := neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "10.0.0.0/24", IPVersion: 4, SubnetAttrs: neutron.SubnetAttrs{GatewayIP: &gw, AllocationPools: pools}})}
	net := &neutron.Network{ID: "n"}
	inStep := &neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: string(gw), AllocationPools: pools}

	for _, tc := range []struct {
		name string
		want neutron.Desired
		got  neutron.Observed
		out  oneSubnet
	}{
		{"nothing in Neutron: create both", want, neutron.Observed{},
			oneSubnet{CreateNetwork: true, CreateSubnet: true}},
		{"network without subnet: create the subnet", want, neutron.Observed{Network: net},
			oneSubnet{CreateSubnet: true}},
		{"in step: nothing", want, neutron.Observed{Network: net, Subnets: seen(inStep)}, oneSubnet{}},
		{"pools in another order are the same pools", neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: neutron.SubnetAttrs{
			AllocationPools: []neutron.Pool{{Start: "10.0.0.1", End: "10.0.0.8"}, {Start: "10.0.0.10", End: "10.0.0.254"}}}})},
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24",
				AllocationPools: []neutron.Pool{{Start: "10.0.0.10", End: "10.0.0.254"}, {Start: "10.0.0.1", End: "10.0.0.8"}}})},
			oneSubnet{}},
		{"unmanaged attributes are left alone", neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "10.0.0.0/24"})},
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: otherGW})}, oneSubnet{}},
		{"gateway only changed: only the gateway is sent", want,
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: otherGW, AllocationPools: pools})},
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{GatewayIP: &gw}, SubnetDiffs: []neutron.Difference{{Attribute: "gateway", Observed: otherGW, Desired: string(gw)}}}},
		{"pools changed: only the pools are sent", want,
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: string(gw), AllocationPools: []neutron.Pool{{Start: "10.0.0.2", End: "10.0.0.99"}}})},
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{AllocationPools: pools},
				SubnetDiffs: []neutron.Difference{{Attribute: "allocation pools", Observed: "10.0.0.2-10.0.0.99", Desired: "10.0.0.2-10.0.0.254"}}}},
		{"another CIDR cannot be changed", want,
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.9.0.0/24"})},
			oneSubnet{Immutable: "Neutron subnet s has CIDR 10.9.0.0/24, not 10.0.0.0/24, and a subnet's CIDR cannot change: delete and recreate the neutron.Network"}},
		{"gateway removed: null is sent", neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: neutron.SubnetAttrs{GatewayIP: new(neutron.GatewayIP)}})},
			neutron.Observed{Network: net, Subnets: seen(inStep)},
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{GatewayIP: new(neutron.GatewayIP)}, SubnetDiffs: []neutron.Difference{{Attribute: "gateway", Observed: "10.0.0.1", Desired: "none"}}}},
		{"no gateway, as wanted", neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: neutron.SubnetAttrs{GatewayIP: new(neutron.GatewayIP)}})},
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24"})}, oneSubnet{}},
		{"gateway added", want,
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24", AllocationPools: pools})},
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{GatewayIP: &gw}, SubnetDiffs: []neutron.Difference{{Attribute: "gateway", Observed: "none", Desired: "10.0.0.1"}}}},
		{"other IPv6 modes cannot be changed", neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "2001:db8::/64", IPv6Modes: neutron.IPv6Modes{AddressMode: "slaac", RAMode: "slaac"}})},
			neutron.Observed{Network: net, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "2001:db8::/64", IPv6Modes: neutron.IPv6Modes{AddressMode: "slaac"}})},
			oneSubnet{Immutable: "Neutron subnet s has IPv6 address mode slaac, RA mode none, not address mode slaac, RA mode slaac, and a subnet's IPv6 modes cannot change: delete and recreate the neutron.Network"}},
		{"Retain wanted, not in the tags: the tags change", neutron.Desired{Network: neutron.DesiredNetwork{Retain: true}, Subnets: want.Subnets},
			neutron.Observed{Network: net, Subnets: seen(inStep)},
			oneSubnet{RetagNetwork: true, NetworkDiffs: []neutron.Difference{{Attribute: "deletion policy", Observed: "Delete", Desired: "Retain"}}}},
		{"Delete wanted, Retain in the tags: the tags change", want,
			neutron.Observed{Network: &neutron.Network{ID: "n", Tags: []string{neutron.RetainTag}}, Subnets: seen(inStep)},
			oneSubnet{RetagNetwork: true, NetworkDiffs: []neutron.Difference{{Attribute: "deletion policy", Observed: "Retain", Desired: "Delete"}}}},
		{"Retain wanted and in the tags: nothing", neutron.Desired{Network: neutron.DesiredNetwork{Retain: true}, Subnets: want.Subnets},
			neutron.Observed{Network: &neutron.Network{ID: "n", Tags: []string{neutron.RetainTag}}, Subnets: seen(inStep)}, oneSubnet{}},
		{"duplicates are deleted", want,
			neutron.Observed{Network: net, Subnets: seen(inStep), DuplicateNetworks: []neutron.Network{{ID: "n2"}}, DuplicateSubnets: []neutron.Subnet{{ID: "s2"}}},
			oneSubnet{DeleteNetworks: []neutron.Network{{ID: "n2"}}, DeleteSubnets: []neutron.Subnet{{ID: "s2"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := viewOne(Diff(tc.want, tc.got))
			if !reflect.DeepEqual(got, tc.out) {
				t.Errorf("Diff = %+v\nwant   %+v", got, tc.out)
			}
			if Diff(tc.want, tc.got).None() != reflect.DeepEqual(tc.out, oneSubnet{}) {
				t.Errorf("None() disagrees with %+v", got)
			}
		})
	}
}

// DNS servers compare as a list (resolvers try them in order), host routes as a set
// (Neutron does not keep their order), and a change sends only what differs.
func TestDiffSubnetOptions(t *testing.T) {
	on, off := true, false
	none, noRoutes := []string{}, []neutron.HostRoute{}
	routes := []neutron.HostRoute{{Destination: "10.1.0.0/16", NextHop: "10.0.0.254"}, {Destination: "0.0.0.0/0", NextHop: "10.0.0.1"}}
	desired := func(servers []string, routes []neutron.HostRoute, dhcp *bool) neutron.Desired {
		return neutron.Desired{Subnets: one(neutron.DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: neutron.SubnetAttrs{DNSNameservers: servers, HostRoutes: routes, EnableDHCP: dhcp}})}
	}
	observed := func(servers []string, routes []neutron.HostRoute, dhcp bool) neutron.Observed {
		return neutron.Observed{Network: &neutron.Network{ID: "n"}, Subnets: seen(&neutron.Subnet{ID: "s", CIDR: "10.0.0.0/24", DNSNameservers: servers, HostRoutes: routes, EnableDHCP: dhcp})}
	}
	for _, tc := range []struct {
		name string
		want neutron.Desired
		got  neutron.Observed
		out  oneSubnet
	}{
		{"Neutron's defaults, as a spec without the fields wants", desired(none, noRoutes, &on), observed(nil, nil, true), oneSubnet{}},
		{"in step", desired([]string{"10.0.0.2", "2001:db8::53"}, routes, &off),
			observed([]string{"10.0.0.2", "2001:db8::53"}, routes, false), oneSubnet{}},
		{"an IPv6 server spelled otherwise is the same server", desired([]string{"2001:db8::53"}, noRoutes, &on),
			observed([]string{"2001:db8:0:0::53"}, nil, true), oneSubnet{}},
		{"routes in another order are the same routes", desired(none, routes, &on),
			observed(nil, []neutron.HostRoute{routes[1], routes[0]}, true), oneSubnet{}},
		{"servers in another order differ: only the servers are sent", desired([]string{"10.0.0.2", "10.0.0.3"}, routes, &on),
			observed([]string{"10.0.0.3", "10.0.0.2"}, routes, true),
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{DNSNameservers: []string{"10.0.0.2", "10.0.0.3"}},
				SubnetDiffs: []neutron.Difference{{Attribute: "dns nameservers", Observed: "10.0.0.3,10.0.0.2", Desired: "10.0.0.2,10.0.0.3"}}}},
		{"servers added by hand are removed with an empty list", desired(none, noRoutes, &on),
			observed([]string{"8.8.8.8"}, nil, true),
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{DNSNameservers: none}, SubnetDiffs: []neutron.Difference{{Attribute: "dns nameservers", Observed: "8.8.8.8", Desired: "none"}}}},
		{"a route's next hop changed: only the routes are sent", desired(none, routes, &on),
			observed(nil, []neutron.HostRoute{routes[0], {Destination: "0.0.0.0/0", NextHop: "10.0.0.9"}}, true),
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{HostRoutes: routes},
				SubnetDiffs: []neutron.Difference{{Attribute: "host routes", Observed: "10.1.0.0/16 via 10.0.0.254,0.0.0.0/0 via 10.0.0.9", Desired: "10.1.0.0/16 via 10.0.0.254,0.0.0.0/0 via 10.0.0.1"}}}},
		{"routes removed: an empty list is sent", desired(none, noRoutes, &on), observed(nil, routes, true),
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{HostRoutes: noRoutes},
				SubnetDiffs: []neutron.Difference{{Attribute: "host routes", Observed: "10.1.0.0/16 via 10.0.0.254,0.0.0.0/0 via 10.0.0.1", Desired: "none"}}}},
		{"DHCP turned off: only enable_dhcp is sent", desired(none, noRoutes, &off), observed(nil, nil, true),
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{EnableDHCP: &off}, SubnetDiffs: []neutron.Difference{{Attribute: "dhcp", Observed: "on", Desired: "off"}}}},
		{"all three differ: one change carries them", desired([]string{"10.0.0.2"}, routes[:1], &on), observed(nil, nil, false),
			oneSubnet{UpdateSubnet: neutron.SubnetAttrs{DNSNameservers: []string{"10.0.0.2"}, HostRoutes: routes[:1], EnableDHCP: &on},
				SubnetDiffs: []neutron.Difference{{Attribute: "dns nameservers", Observed: "none", Desired: "10.0.0.2"}, {Attribute: "host routes", Observed: "none", Desired: "10.1.0.0/16 via 10.0.0.254"}, {Attribute: "dhcp", Observed: "off", Desired: "on"}}}},
		{"unmanaged (nil) options are left alone", desired(nil, nil, nil), observed([]string{"8.8.8.8"}, routes, false), oneSubnet{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := viewOne(Diff(tc.want, tc.got))
			if !reflect.DeepEqual(got, tc.out) {
				t.Errorf("Diff = %+v\nwant   %+v", got, tc.out)
			}
		})
	}
}

// oneSubnet is neutron.Changes as the one-subnet form sees them: the tables above were written
// for it.
type oneSubnet struct {
	DeleteNetworks []neutron.Network
	CreateNetwork  bool
	UpdateNetwork  neutron.NetworkAttrs
	NetworkDiffs   []neutron.Difference
	RetagNetwork   bool
	DeleteSubnets  []neutron.Subnet
	CreateSubnet   bool
	UpdateSubnet   neutron.SubnetAttrs
	SubnetDiffs    []neutron.Difference
	Immutable      string
}

func viewOne(c neutron.Changes) oneSubnet {
	v := oneSubnet{DeleteNetworks: c.DeleteNetworks, CreateNetwork: c.CreateNetwork, UpdateNetwork: c.UpdateNetwork,
		NetworkDiffs: c.NetworkDiffs, RetagNetwork: c.RetagNetwork, DeleteSubnets: c.DeleteSubnets, Immutable: c.Immutable}
	for _, s := range c.Subnets {
		v.CreateSubnet = s.Got == nil
		v.UpdateSubnet, v.SubnetDiffs = s.Update, s.Diffs
	}
	return v
}

func one(s neutron.DesiredSubnet) []neutron.DesiredSubnet { return []neutron.DesiredSubnet{s} }

func seen(s *neutron.Subnet) map[string]neutron.Subnet { return map[string]neutron.Subnet{"": *s} }

// The list form: each item takes its own subnet; an item without one takes a subnet of
// the same range that no item names (renamed, not made again); the rest are removed. A
// pool subnet's range is Neutron's choice: only the pool and the prefix length count.
func TestDiffItems(t *testing.T) {
	net := &neutron.Network{ID: "n"}
	a := neutron.Subnet{ID: "sa", CIDR: "10.0.0.0/24"}
	b := neutron.Subnet{ID: "sb", CIDR: "10.0.1.0/24"}
	pooled := neutron.Subnet{ID: "sp", CIDR: "2001:db8:a0::/64", SubnetPoolID: "pool-1"}
	wantA := neutron.DesiredSubnet{Item: "a", CIDR: "10.0.0.0/24"}
	wantPool := neutron.DesiredSubnet{Item: "p", Pool: &neutron.PoolRef{ID: "pool-1"}, PrefixLength: 64}
	byName := neutron.DesiredSubnet{Item: "p", Pool: &neutron.PoolRef{Name: "v6"}, PrefixLength: 64}
	for _, tc := range []struct {
		name        string
		want        []neutron.DesiredSubnet
		got         map[string]neutron.Subnet
		changes     []neutron.SubnetChange
		remove      []neutron.Subnet
		immutable   string
		createsSome bool
	}{
		{name: "each item on its own subnet: nothing", want: []neutron.DesiredSubnet{wantA}, got: map[string]neutron.Subnet{"a": a},
			changes: []neutron.SubnetChange{{Want: wantA, Got: &a}}},
		{name: "the one-subnet form's subnet of the same range is renamed for the item", want: []neutron.DesiredSubnet{wantA},
			got: map[string]neutron.Subnet{"": a}, changes: []neutron.SubnetChange{{Want: wantA, Got: &a, Rename: true}}},
		{name: "an item's subnet is never taken by another item", want: []neutron.DesiredSubnet{wantA, {Item: "b", CIDR: "10.0.0.0/24"}},
			got: map[string]neutron.Subnet{"a": a}, changes: []neutron.SubnetChange{{Want: wantA, Got: &a}, {Want: neutron.DesiredSubnet{Item: "b", CIDR: "10.0.0.0/24"}}},
			createsSome: true},
		{name: "an item gone from the spec: its subnet is removed", want: []neutron.DesiredSubnet{wantA},
			got: map[string]neutron.Subnet{"a": a, "b": b}, changes: []neutron.SubnetChange{{Want: wantA, Got: &a}}, remove: []neutron.Subnet{b}},
		{name: "a pool item on its pool's subnet of its length: nothing", want: []neutron.DesiredSubnet{wantPool},
			got: map[string]neutron.Subnet{"p": pooled}, changes: []neutron.SubnetChange{{Want: wantPool, Got: &pooled}}},
		{name: "a pool item named by name: the pool is not compared", want: []neutron.DesiredSubnet{byName},
			got: map[string]neutron.Subnet{"p": pooled}, changes: []neutron.SubnetChange{{Want: byName, Got: &pooled}}},
		{name: "a pool item does not take a subnet of another range", want: []neutron.DesiredSubnet{wantPool},
			got: map[string]neutron.Subnet{"": a}, changes: []neutron.SubnetChange{{Want: wantPool}}, remove: []neutron.Subnet{a}, createsSome: true},
		{name: "an item removed and added again with another range: its old subnet is replaced", want: []neutron.DesiredSubnet{wantA},
			got: map[string]neutron.Subnet{"a": b}, changes: []neutron.SubnetChange{{Want: wantA}}, remove: []neutron.Subnet{b}, createsSome: true},
		{name: "a pool item on a subnet not from its pool: replaced", want: []neutron.DesiredSubnet{wantPool},
			got: map[string]neutron.Subnet{"p": {ID: "sp", CIDR: "2001:db8:a0::/64"}}, changes: []neutron.SubnetChange{{Want: wantPool}},
			remove: []neutron.Subnet{{ID: "sp", CIDR: "2001:db8:a0::/64"}}, createsSome: true},
		{name: "a pool item on a subnet of another length: replaced", want: []neutron.DesiredSubnet{wantPool},
			got: map[string]neutron.Subnet{"p": {ID: "sp", CIDR: "2001:db8:a0::/56", SubnetPoolID: "pool-1"}}, changes: []neutron.SubnetChange{{Want: wantPool}},
			remove: []neutron.Subnet{{ID: "sp", CIDR: "2001:db8:a0::/56", SubnetPoolID: "pool-1"}}, createsSome: true},
		{name: "the one-subnet form's subnet of another range cannot match", want: []neutron.DesiredSubnet{{CIDR: "10.0.0.0/24"}},
			got:       map[string]neutron.Subnet{"": b},
			immutable: "Neutron subnet sb has CIDR 10.0.1.0/24, not 10.0.0.0/24, and a subnet's CIDR cannot change: delete and recreate the neutron.Network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Diff(neutron.Desired{Subnets: tc.want}, neutron.Observed{Network: net, Subnets: tc.got})
			if c.Immutable != tc.immutable {
				t.Fatalf("Immutable = %q, want %q", c.Immutable, tc.immutable)
			}
			if tc.immutable != "" {
				return
			}
			if !reflect.DeepEqual(c.Subnets, tc.changes) || !reflect.DeepEqual(c.RemoveSubnets, tc.remove) {
				t.Errorf("Diff: subnets %+v remove %+v\nwant        %+v remove %+v", c.Subnets, c.RemoveSubnets, tc.changes, tc.remove)
			}
			if c.CreatesSubnet() != tc.createsSome {
				t.Errorf("CreatesSubnet() = %v, want %v", c.CreatesSubnet(), tc.createsSome)
			}
			if wantNone := tc.remove == nil && !tc.createsSome && !slices.ContainsFunc(tc.changes, func(s neutron.SubnetChange) bool { return s.Rename }); c.None() != wantNone {
				t.Errorf("None() = %v, want %v", c.None(), wantNone)
			}
		})
	}
}
