package neutron

import (
	"reflect"
	"slices"
	"testing"
)

func TestDiff(t *testing.T) {
	gw, otherGW := GatewayIP("10.0.0.1"), "10.0.0.9"
	pools := []Pool{{Start: "10.0.0.2", End: "10.0.0.254"}}
	want := Desired{Subnets: one(DesiredSubnet{CIDR: "10.0.0.0/24", IPVersion: 4, SubnetAttrs: SubnetAttrs{GatewayIP: &gw, AllocationPools: pools}})}
	net := &Network{ID: "n"}
	inStep := &Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: string(gw), AllocationPools: pools}

	for _, tc := range []struct {
		name string
		want Desired
		got  Observed
		out  oneSubnet
	}{
		{"nothing in Neutron: create both", want, Observed{},
			oneSubnet{CreateNetwork: true, CreateSubnet: true}},
		{"network without subnet: create the subnet", want, Observed{Network: net},
			oneSubnet{CreateSubnet: true}},
		{"in step: nothing", want, Observed{Network: net, Subnets: seen(inStep)}, oneSubnet{}},
		{"pools in another order are the same pools", Desired{Subnets: one(DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: SubnetAttrs{
			AllocationPools: []Pool{{Start: "10.0.0.1", End: "10.0.0.8"}, {Start: "10.0.0.10", End: "10.0.0.254"}}}})},
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24",
				AllocationPools: []Pool{{Start: "10.0.0.10", End: "10.0.0.254"}, {Start: "10.0.0.1", End: "10.0.0.8"}}})},
			oneSubnet{}},
		{"unmanaged attributes are left alone", Desired{Subnets: one(DesiredSubnet{CIDR: "10.0.0.0/24"})},
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: otherGW})}, oneSubnet{}},
		{"gateway only changed: only the gateway is sent", want,
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: otherGW, AllocationPools: pools})},
			oneSubnet{UpdateSubnet: SubnetAttrs{GatewayIP: &gw}, SubnetDiffs: []Difference{{"gateway", otherGW, string(gw)}}}},
		{"pools changed: only the pools are sent", want,
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: string(gw), AllocationPools: []Pool{{Start: "10.0.0.2", End: "10.0.0.99"}}})},
			oneSubnet{UpdateSubnet: SubnetAttrs{AllocationPools: pools},
				SubnetDiffs: []Difference{{"allocation pools", "10.0.0.2-10.0.0.99", "10.0.0.2-10.0.0.254"}}}},
		{"another CIDR cannot be changed", want,
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.9.0.0/24"})},
			oneSubnet{Immutable: "Neutron subnet s has CIDR 10.9.0.0/24, not 10.0.0.0/24, and a subnet's CIDR cannot change: delete and recreate the Network"}},
		{"gateway removed: null is sent", Desired{Subnets: one(DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: SubnetAttrs{GatewayIP: new(GatewayIP)}})},
			Observed{Network: net, Subnets: seen(inStep)},
			oneSubnet{UpdateSubnet: SubnetAttrs{GatewayIP: new(GatewayIP)}, SubnetDiffs: []Difference{{"gateway", "10.0.0.1", "none"}}}},
		{"no gateway, as wanted", Desired{Subnets: one(DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: SubnetAttrs{GatewayIP: new(GatewayIP)}})},
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24"})}, oneSubnet{}},
		{"gateway added", want,
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24", AllocationPools: pools})},
			oneSubnet{UpdateSubnet: SubnetAttrs{GatewayIP: &gw}, SubnetDiffs: []Difference{{"gateway", "none", "10.0.0.1"}}}},
		{"other IPv6 modes cannot be changed", Desired{Subnets: one(DesiredSubnet{CIDR: "2001:db8::/64", IPv6Modes: IPv6Modes{AddressMode: "slaac", RAMode: "slaac"}})},
			Observed{Network: net, Subnets: seen(&Subnet{ID: "s", CIDR: "2001:db8::/64", IPv6Modes: IPv6Modes{AddressMode: "slaac"}})},
			oneSubnet{Immutable: "Neutron subnet s has IPv6 address mode slaac, RA mode none, not address mode slaac, RA mode slaac, and a subnet's IPv6 modes cannot change: delete and recreate the Network"}},
		{"Retain wanted, not in the tags: the tags change", Desired{Network: DesiredNetwork{Retain: true}, Subnets: want.Subnets},
			Observed{Network: net, Subnets: seen(inStep)},
			oneSubnet{RetagNetwork: true, NetworkDiffs: []Difference{{"deletion policy", "Delete", "Retain"}}}},
		{"Delete wanted, Retain in the tags: the tags change", want,
			Observed{Network: &Network{ID: "n", Tags: []string{RetainTag}}, Subnets: seen(inStep)},
			oneSubnet{RetagNetwork: true, NetworkDiffs: []Difference{{"deletion policy", "Retain", "Delete"}}}},
		{"Retain wanted and in the tags: nothing", Desired{Network: DesiredNetwork{Retain: true}, Subnets: want.Subnets},
			Observed{Network: &Network{ID: "n", Tags: []string{RetainTag}}, Subnets: seen(inStep)}, oneSubnet{}},
		{"duplicates are deleted", want,
			Observed{Network: net, Subnets: seen(inStep), DuplicateNetworks: []Network{{ID: "n2"}}, DuplicateSubnets: []Subnet{{ID: "s2"}}},
			oneSubnet{DeleteNetworks: []Network{{ID: "n2"}}, DeleteSubnets: []Subnet{{ID: "s2"}}}},
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
	none, noRoutes := []string{}, []HostRoute{}
	routes := []HostRoute{{"10.1.0.0/16", "10.0.0.254"}, {"0.0.0.0/0", "10.0.0.1"}}
	desired := func(servers []string, routes []HostRoute, dhcp *bool) Desired {
		return Desired{Subnets: one(DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: SubnetAttrs{DNSNameservers: servers, HostRoutes: routes, EnableDHCP: dhcp}})}
	}
	observed := func(servers []string, routes []HostRoute, dhcp bool) Observed {
		return Observed{Network: &Network{ID: "n"}, Subnets: seen(&Subnet{ID: "s", CIDR: "10.0.0.0/24", DNSNameservers: servers, HostRoutes: routes, EnableDHCP: dhcp})}
	}
	for _, tc := range []struct {
		name string
		want Desired
		got  Observed
		out  oneSubnet
	}{
		{"Neutron's defaults, as a spec without the fields wants", desired(none, noRoutes, &on), observed(nil, nil, true), oneSubnet{}},
		{"in step", desired([]string{"10.0.0.2", "2001:db8::53"}, routes, &off),
			observed([]string{"10.0.0.2", "2001:db8::53"}, routes, false), oneSubnet{}},
		{"an IPv6 server spelled otherwise is the same server", desired([]string{"2001:db8::53"}, noRoutes, &on),
			observed([]string{"2001:db8:0:0::53"}, nil, true), oneSubnet{}},
		{"routes in another order are the same routes", desired(none, routes, &on),
			observed(nil, []HostRoute{routes[1], routes[0]}, true), oneSubnet{}},
		{"servers in another order differ: only the servers are sent", desired([]string{"10.0.0.2", "10.0.0.3"}, routes, &on),
			observed([]string{"10.0.0.3", "10.0.0.2"}, routes, true),
			oneSubnet{UpdateSubnet: SubnetAttrs{DNSNameservers: []string{"10.0.0.2", "10.0.0.3"}},
				SubnetDiffs: []Difference{{"dns nameservers", "10.0.0.3,10.0.0.2", "10.0.0.2,10.0.0.3"}}}},
		{"servers added by hand are removed with an empty list", desired(none, noRoutes, &on),
			observed([]string{"8.8.8.8"}, nil, true),
			oneSubnet{UpdateSubnet: SubnetAttrs{DNSNameservers: none}, SubnetDiffs: []Difference{{"dns nameservers", "8.8.8.8", "none"}}}},
		{"a route's next hop changed: only the routes are sent", desired(none, routes, &on),
			observed(nil, []HostRoute{routes[0], {"0.0.0.0/0", "10.0.0.9"}}, true),
			oneSubnet{UpdateSubnet: SubnetAttrs{HostRoutes: routes},
				SubnetDiffs: []Difference{{"host routes", "10.1.0.0/16 via 10.0.0.254,0.0.0.0/0 via 10.0.0.9", "10.1.0.0/16 via 10.0.0.254,0.0.0.0/0 via 10.0.0.1"}}}},
		{"routes removed: an empty list is sent", desired(none, noRoutes, &on), observed(nil, routes, true),
			oneSubnet{UpdateSubnet: SubnetAttrs{HostRoutes: noRoutes},
				SubnetDiffs: []Difference{{"host routes", "10.1.0.0/16 via 10.0.0.254,0.0.0.0/0 via 10.0.0.1", "none"}}}},
		{"DHCP turned off: only enable_dhcp is sent", desired(none, noRoutes, &off), observed(nil, nil, true),
			oneSubnet{UpdateSubnet: SubnetAttrs{EnableDHCP: &off}, SubnetDiffs: []Difference{{"dhcp", "on", "off"}}}},
		{"all three differ: one change carries them", desired([]string{"10.0.0.2"}, routes[:1], &on), observed(nil, nil, false),
			oneSubnet{UpdateSubnet: SubnetAttrs{DNSNameservers: []string{"10.0.0.2"}, HostRoutes: routes[:1], EnableDHCP: &on},
				SubnetDiffs: []Difference{{"dns nameservers", "none", "10.0.0.2"}, {"host routes", "none", "10.1.0.0/16 via 10.0.0.254"}, {"dhcp", "off", "on"}}}},
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

// oneSubnet is Changes as the one-subnet form sees them: the tables above were written
// for it.
type oneSubnet struct {
	DeleteNetworks []Network
	CreateNetwork  bool
	UpdateNetwork  NetworkAttrs
	NetworkDiffs   []Difference
	RetagNetwork   bool
	DeleteSubnets  []Subnet
	CreateSubnet   bool
	UpdateSubnet   SubnetAttrs
	SubnetDiffs    []Difference
	Immutable      string
}

func viewOne(c Changes) oneSubnet {
	v := oneSubnet{DeleteNetworks: c.DeleteNetworks, CreateNetwork: c.CreateNetwork, UpdateNetwork: c.UpdateNetwork,
		NetworkDiffs: c.NetworkDiffs, RetagNetwork: c.RetagNetwork, DeleteSubnets: c.DeleteSubnets, Immutable: c.Immutable}
	for _, s := range c.Subnets {
		v.CreateSubnet = s.Got == nil
		v.UpdateSubnet, v.SubnetDiffs = s.Update, s.Diffs
	}
	return v
}

func one(s DesiredSubnet) []DesiredSubnet { return []DesiredSubnet{s} }

func seen(s *Subnet) map[string]Subnet { return map[string]Subnet{"": *s} }

// The list form: each item takes its own subnet; an item without one takes a subnet of
// the same range that no item names (renamed, not made again); the rest are removed. A
// pool subnet's range is Neutron's choice: only the pool and the prefix length count.
func TestDiffItems(t *testing.T) {
	net := &Network{ID: "n"}
	a := Subnet{ID: "sa", CIDR: "10.0.0.0/24"}
	b := Subnet{ID: "sb", CIDR: "10.0.1.0/24"}
	pooled := Subnet{ID: "sp", CIDR: "2001:db8:a0::/64", SubnetPoolID: "pool-1"}
	wantA := DesiredSubnet{Item: "a", CIDR: "10.0.0.0/24"}
	wantPool := DesiredSubnet{Item: "p", Pool: &PoolRef{ID: "pool-1"}, PrefixLength: 64}
	byName := DesiredSubnet{Item: "p", Pool: &PoolRef{Name: "v6"}, PrefixLength: 64}
	for _, tc := range []struct {
		name        string
		want        []DesiredSubnet
		got         map[string]Subnet
		changes     []SubnetChange
		remove      []Subnet
		immutable   string
		createsSome bool
	}{
		{name: "each item on its own subnet: nothing", want: []DesiredSubnet{wantA}, got: map[string]Subnet{"a": a},
			changes: []SubnetChange{{Want: wantA, Got: &a}}},
		{name: "the one-subnet form's subnet of the same range is renamed for the item", want: []DesiredSubnet{wantA},
			got: map[string]Subnet{"": a}, changes: []SubnetChange{{Want: wantA, Got: &a, Rename: true}}},
		{name: "an item's subnet is never taken by another item", want: []DesiredSubnet{wantA, {Item: "b", CIDR: "10.0.0.0/24"}},
			got: map[string]Subnet{"a": a}, changes: []SubnetChange{{Want: wantA, Got: &a}, {Want: DesiredSubnet{Item: "b", CIDR: "10.0.0.0/24"}}},
			createsSome: true},
		{name: "an item gone from the spec: its subnet is removed", want: []DesiredSubnet{wantA},
			got: map[string]Subnet{"a": a, "b": b}, changes: []SubnetChange{{Want: wantA, Got: &a}}, remove: []Subnet{b}},
		{name: "a pool item on its pool's subnet of its length: nothing", want: []DesiredSubnet{wantPool},
			got: map[string]Subnet{"p": pooled}, changes: []SubnetChange{{Want: wantPool, Got: &pooled}}},
		{name: "a pool item named by name: the pool is not compared", want: []DesiredSubnet{byName},
			got: map[string]Subnet{"p": pooled}, changes: []SubnetChange{{Want: byName, Got: &pooled}}},
		{name: "a pool item does not take a subnet of another range", want: []DesiredSubnet{wantPool},
			got: map[string]Subnet{"": a}, changes: []SubnetChange{{Want: wantPool}}, remove: []Subnet{a}, createsSome: true},
		{name: "an item removed and added again with another range: its old subnet is replaced", want: []DesiredSubnet{wantA},
			got: map[string]Subnet{"a": b}, changes: []SubnetChange{{Want: wantA}}, remove: []Subnet{b}, createsSome: true},
		{name: "a pool item on a subnet not from its pool: replaced", want: []DesiredSubnet{wantPool},
			got: map[string]Subnet{"p": {ID: "sp", CIDR: "2001:db8:a0::/64"}}, changes: []SubnetChange{{Want: wantPool}},
			remove: []Subnet{{ID: "sp", CIDR: "2001:db8:a0::/64"}}, createsSome: true},
		{name: "a pool item on a subnet of another length: replaced", want: []DesiredSubnet{wantPool},
			got: map[string]Subnet{"p": {ID: "sp", CIDR: "2001:db8:a0::/56", SubnetPoolID: "pool-1"}}, changes: []SubnetChange{{Want: wantPool}},
			remove: []Subnet{{ID: "sp", CIDR: "2001:db8:a0::/56", SubnetPoolID: "pool-1"}}, createsSome: true},
		{name: "the one-subnet form's subnet of another range cannot match", want: []DesiredSubnet{{CIDR: "10.0.0.0/24"}},
			got:       map[string]Subnet{"": b},
			immutable: "Neutron subnet sb has CIDR 10.0.1.0/24, not 10.0.0.0/24, and a subnet's CIDR cannot change: delete and recreate the Network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Diff(Desired{Subnets: tc.want}, Observed{Network: net, Subnets: tc.got})
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
			if wantNone := tc.remove == nil && !tc.createsSome && !slices.ContainsFunc(tc.changes, func(s SubnetChange) bool { return s.Rename }); c.None() != wantNone {
				t.Errorf("None() = %v, want %v", c.None(), wantNone)
			}
		})
	}
}
