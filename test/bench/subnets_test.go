package main

import (
	"testing"

	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// The bench's subnets are specs the CRD and the controller accept, in both families.
func TestBenchSubnetsPlan(t *testing.T) {
	for _, i := range []int{0, 1, 2, 3, 7, 255, 256, 999, 1003, 65535} {
		b := benchSubnetOf(i)
		spec := subnetplan.Spec{CIDR: b.CIDR, DNSNameservers: b.DNS, HostRoutes: []subnetplan.HostRoute{{Destination: b.RouteDestination, NextHop: b.RouteNextHop}},
			EnableDHCP: true, IPv6AddressMode: b.IPv6Mode, IPv6RAMode: b.IPv6Mode}
		for _, p := range b.Pools {
			spec.AllocationPools = append(spec.AllocationPools, subnetplan.PoolRange{Start: p[0], End: p[1]})
		}
		if b.NoGateway {
			spec.GatewayMode = subnetplan.GatewayNone
		}
		if _, err := subnetplan.Plan(spec); err != nil {
			t.Errorf("bench subnet %d %+v: %v", i, b, err)
		}
	}
}
