package reconcile_test

import (
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// subnetPoolCases carry explicit allocation pools, a subnet without gateway and the IPv6
// modes to Neutron: pools and gateway in the subnet's create or in one PUT together (so
// Neutron never sees the gateway inside a pool), pools restored after a change by hand,
// the modes only in the create, and a spec Neutron would refuse stopped before any call.
func subnetPoolCases() []syncCase {
	pools := []samplecrdv1.AllocationPool{{Start: "10.40.0.200", End: "10.40.0.254"}, {Start: "10.40.0.10", End: "10.40.0.99"}}
	const poolsJSON = `"allocation_pools":[{"start":"10.40.0.200","end":"10.40.0.254"},{"start":"10.40.0.10","end":"10.40.0.99"}]`
	return []syncCase{{
		name:       "new Network with pools and no gateway: both in the subnet's create, gateway_ip null",
		object:     withPools(withGatewayMode(NewNetwork("isolated", "10.40.0.0/24", ""), samplecrdv1.GatewayModeNone), pools),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			body := f.Neutron.Bodies("create subnet")[0]
			for _, want := range []string{`"gateway_ip":null`, poolsJSON} {
				if !strings.Contains(body, want) {
					t.Errorf("create subnet sent %s, want it to carry %s", body, want)
				}
			}
			if s := f.Neutron.Subnets()[0]; s.GatewayIP != "" || len(s.AllocationPools) != 2 {
				t.Errorf("Neutron subnet has gateway %q and pools %v, want none and 2", s.GatewayIP, s.AllocationPools)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("")(t, got)
			if c := ReadyCondition(t, got); !strings.Contains(c.Message, "(10.40.0.0/24, no gateway)") {
				t.Errorf("Ready message %q, want it to say there is no gateway", c.Message)
			}
		},
	}, {
		name:       "gatewayMode changed to None: gateway null and the pools that now hold its address, in one PUT, same subnet",
		object:     WithGeneration(withGatewayMode(RealizedNetwork("to-none", "10.40.0.0/24", ""), samplecrdv1.GatewayModeNone), 2),
		neutron:    PutRealizedWith("10.40.0.0/24", nil),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal GatewayUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"gateway_ip":null,"allocation_pools":[{"start":"10.40.0.1","end":"10.40.0.254"}]}`)
			if s := f.Neutron.Subnets(); len(s) != 1 || s[0].ID != "subnet-of-"+owner.Name || s[0].GatewayIP != "" {
				t.Errorf("Neutron subnets %+v, want the same one without gateway", s)
			}
		},
		wantObject: WantReady(""),
	}, {
		name:   "gatewayMode back to Automatic with pools: the gateway and pools around it in one PUT",
		object: WithGeneration(withPools(RealizedNetwork("to-auto", "10.40.0.0/24", ""), pools), 3),
		neutron: PutRealizedWith("10.40.0.0/24", func(s *neutron.Subnet) {
			s.GatewayIP, s.AllocationPools = "", []neutron.Pool{{Start: "10.40.0.1", End: "10.40.0.254"}}
		}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal GatewayUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"gateway_ip":"10.40.0.1",`+poolsJSON+`}`)
		},
		wantObject: WantReady("10.40.0.1"),
	}, {
		name:   "pools changed by hand in Neutron: restored in one PUT with only allocation_pools, status untouched",
		object: withPools(RealizedNetwork("pools-drift", "10.40.0.0/24", ""), pools),
		neutron: PutRealizedWith("10.40.0.0/24", func(s *neutron.Subnet) {
			s.AllocationPools = []neutron.Pool{{Start: "10.40.0.2", End: "10.40.0.254"}}
		}),
		want:       succeeds,
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update subnet", `{`+poolsJSON+`}`)
		},
		wantObject: WantReady("10.40.0.1"),
	}, {
		name:   "pools in step, in another order: nothing at all",
		object: withPools(RealizedNetwork("pools-steady", "10.40.0.0/24", ""), pools),
		neutron: PutRealizedWith("10.40.0.0/24", func(s *neutron.Subnet) {
			s.AllocationPools = []neutron.Pool{{Start: "10.40.0.10", End: "10.40.0.99"}, {Start: "10.40.0.200", End: "10.40.0.254"}}
		}),
		want: succeeds,
	}, {
		name:       "new IPv6 slaac Network: both modes in the subnet's create",
		object:     withIPv6Modes(NewNetwork("slaac", "2001:db8:40::/64", ""), samplecrdv1.IPv6ModeSLAAC, samplecrdv1.IPv6ModeSLAAC),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			body := f.Neutron.Bodies("create subnet")[0]
			if !strings.Contains(body, `"ip_version":6,"ipv6_address_mode":"slaac","ipv6_ra_mode":"slaac"`) {
				t.Errorf("create subnet sent %s, want both modes slaac", body)
			}
		},
		wantObject: WantReady("2001:db8:40::1"),
	}, {
		name:   "Neutron subnet with other IPv6 modes: terminal, nothing sent",
		object: withIPv6Modes(RealizedNetwork("modes", "2001:db8:40::/64", ""), samplecrdv1.IPv6ModeDHCPv6Stateful, ""),
		neutron: PutRealizedWith("2001:db8:40::/64", func(s *neutron.Subnet) {
			s.IPVersion, s.IPv6Modes = 6, neutron.IPv6Modes{AddressMode: "slaac", RAMode: "slaac"}
		}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec,
			"has IPv6 address mode slaac, RA mode slaac, not address mode dhcpv6-stateful, RA mode none, and a subnet's IPv6 modes cannot change"),
	}, {
		name:       "IPv6 pool the CRD cannot order, reversed: terminal InvalidSpec naming the field, no Neutron call",
		object:     withPools(NewNetwork("reversed", "2001:db8:40::/64", ""), []samplecrdv1.AllocationPool{{Start: "2001:db8:40::1:0", End: "2001:db8:40::ff"}}),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, "allocationPools[0] 2001:db8:40::1:0-2001:db8:40::ff is reversed"),
	}}
}

func withPools(n *samplecrdv1.Network, pools []samplecrdv1.AllocationPool) *samplecrdv1.Network {
	n.Spec.AllocationPools = pools
	return n
}

func withGatewayMode(n *samplecrdv1.Network, mode samplecrdv1.GatewayMode) *samplecrdv1.Network {
	n.Spec.GatewayMode = mode
	return n
}

func withIPv6Modes(n *samplecrdv1.Network, address, ra samplecrdv1.IPv6Mode) *samplecrdv1.Network {
	n.Spec.IPv6AddressMode, n.Spec.IPv6RAMode = address, ra
	return n
}
