package main

import (
	"testing"

	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// planOf checks that the controller's planner accepts the subnet b.
func planOf(t *testing.T, what string, b benchSubnet) {
	t.Helper()
	spec := subnetplan.Spec{CIDR: b.CIDR, DNSNameservers: b.DNS, HostRoutes: []subnetplan.HostRoute{{Destination: b.RouteDestination, NextHop: b.RouteNextHop}},
		EnableDHCP: true, IPv6AddressMode: b.IPv6Mode, IPv6RAMode: b.IPv6Mode}
	for _, p := range b.Pools {
		spec.AllocationPools = append(spec.AllocationPools, subnetplan.PoolRange{Start: p[0], End: p[1]})
	}
	if b.NoGateway {
		spec.GatewayMode = subnetplan.GatewayNone
	}
	if _, err := subnetplan.Plan(spec); err != nil {
		t.Errorf("%s %+v: %v", what, b, err)
	}
}

// The bench's subnets are specs the CRD and the controller accept, in both families.
func TestBenchSubnetsPlan(t *testing.T) {
	for _, i := range []int{0, 1, 2, 3, 7, 255, 256, 999, 1003, 65535} {
		planOf(t, "bench subnet", benchSubnetOf(i))
	}
}

// A dual-stack Network's items are an IPv4 /24 with gateway and an IPv6 /64 slaac, each
// distinct from the other Networks'.
func TestBenchDualItems(t *testing.T) {
	seen := map[string]int{}
	for i := range 1000 {
		items := benchDualOf(i)
		if len(items) != 2 || items[0].name != "ipv4" || items[1].name != "ipv6" ||
			items[0].subnet.IPVersion != 4 || items[0].subnet.NoGateway || items[1].subnet.IPVersion != 6 || items[1].subnet.IPv6Mode != "slaac" {
			t.Fatalf("benchDualOf(%d) = %+v", i, items)
		}
		for _, it := range items {
			if j, ok := seen[it.subnet.CIDR]; ok {
				t.Fatalf("Networks %d and %d share %s", j, i, it.subnet.CIDR)
			}
			seen[it.subnet.CIDR] = i
		}
		if i%97 == 0 {
			for _, it := range items {
				planOf(t, "dual-stack item "+it.name, it.subnet)
			}
		}
	}
	if it := benchIPv4ItemOf(5); len(it) != 1 || it[0].subnet.CIDR != "10.0.5.0/24" {
		t.Errorf("benchIPv4ItemOf(5) = %+v", it)
	}
}

// The routed stage's subnets have a gateway, which a subnet attached to a router needs.
func TestBenchRoutedSubnets(t *testing.T) {
	for _, i := range []int{0, 1, 2, 3, 7, 199} {
		b := benchRoutedOf(i)
		if b.NoGateway || b.IPVersion != 4 {
			t.Errorf("routed subnet %d: %+v, want IPv4 with a gateway", i, b)
		}
		planOf(t, "routed subnet", b)
	}
}
