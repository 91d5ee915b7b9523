package neutron

import (
	"reflect"
	"testing"
)

func TestDiff(t *testing.T) {
	gw, otherGW := "10.0.0.1", "10.0.0.9"
	pools := []Pool{{Start: "10.0.0.2", End: "10.0.0.254"}}
	want := Desired{Subnet: DesiredSubnet{CIDR: "10.0.0.0/24", IPVersion: 4, SubnetAttrs: SubnetAttrs{GatewayIP: &gw, AllocationPools: pools}}}
	net := &Network{ID: "n"}
	inStep := &Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: gw, AllocationPools: pools}

	for _, tc := range []struct {
		name string
		want Desired
		got  Observed
		out  Changes
	}{
		{"nothing in Neutron: create both", want, Observed{},
			Changes{CreateNetwork: true, CreateSubnet: true}},
		{"network without subnet: create the subnet", want, Observed{Network: net},
			Changes{CreateSubnet: true}},
		{"in step: nothing", want, Observed{Network: net, Subnet: inStep}, Changes{}},
		{"pools in another order are the same pools", Desired{Subnet: DesiredSubnet{CIDR: "10.0.0.0/24", SubnetAttrs: SubnetAttrs{
			AllocationPools: []Pool{{Start: "10.0.0.1", End: "10.0.0.8"}, {Start: "10.0.0.10", End: "10.0.0.254"}}}}},
			Observed{Network: net, Subnet: &Subnet{ID: "s", CIDR: "10.0.0.0/24",
				AllocationPools: []Pool{{Start: "10.0.0.10", End: "10.0.0.254"}, {Start: "10.0.0.1", End: "10.0.0.8"}}}},
			Changes{}},
		{"unmanaged attributes are left alone", Desired{Subnet: DesiredSubnet{CIDR: "10.0.0.0/24"}},
			Observed{Network: net, Subnet: &Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: otherGW}}, Changes{}},
		{"gateway only changed: only the gateway is sent", want,
			Observed{Network: net, Subnet: &Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: otherGW, AllocationPools: pools}},
			Changes{UpdateSubnet: SubnetAttrs{GatewayIP: &gw}, SubnetDiffs: []Difference{{"gateway", otherGW, gw}}}},
		{"pools changed: only the pools are sent", want,
			Observed{Network: net, Subnet: &Subnet{ID: "s", CIDR: "10.0.0.0/24", GatewayIP: gw, AllocationPools: []Pool{{Start: "10.0.0.2", End: "10.0.0.99"}}}},
			Changes{UpdateSubnet: SubnetAttrs{AllocationPools: pools},
				SubnetDiffs: []Difference{{"allocation pools", "10.0.0.2-10.0.0.99", "10.0.0.2-10.0.0.254"}}}},
		{"another CIDR cannot be changed", want,
			Observed{Network: net, Subnet: &Subnet{ID: "s", CIDR: "10.9.0.0/24"}},
			Changes{Immutable: "Neutron subnet s has CIDR 10.9.0.0/24, not 10.0.0.0/24, and a subnet's CIDR cannot change: delete and recreate the Network"}},
		{"duplicates are deleted", want,
			Observed{Network: net, Subnet: inStep, DuplicateNetworks: []Network{{ID: "n2"}}, DuplicateSubnets: []Subnet{{ID: "s2"}}},
			Changes{DeleteNetworks: []Network{{ID: "n2"}}, DeleteSubnets: []Subnet{{ID: "s2"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Diff(tc.want, tc.got)
			if !reflect.DeepEqual(got, tc.out) {
				t.Errorf("Diff = %+v\nwant   %+v", got, tc.out)
			}
			if got.None() != reflect.DeepEqual(tc.out, Changes{}) {
				t.Errorf("None() = %v for %+v", got.None(), got)
			}
		})
	}
}
