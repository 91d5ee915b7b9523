package reconcile_test

import (
	"slices"
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// subnetOptionCases carry the DNS servers, host routes and DHCP of a spec to Neutron: in
// the subnet's create, in one PUT of only what changed, and back again after a change by
// hand in Neutron. Omitted fields are Neutron's defaults, enforced like any value.
func subnetOptionCases() []syncCase {
	off := false
	routes := []samplecrdv1.HostRoute{{Destination: "10.99.0.0/16", NextHop: "10.30.0.254"}, {Destination: "0.0.0.0/0", NextHop: "10.30.0.1"}}
	neutronRoutes := []neutron.HostRoute{{Destination: "10.99.0.0/16", NextHop: "10.30.0.254"}, {Destination: "0.0.0.0/0", NextHop: "10.30.0.1"}}
	return []syncCase{{
		name:       "new Network with DNS servers, routes and DHCP off: all in the subnet's create, no extra call",
		object:     withSubnetOptions(NewNetwork("options", "10.30.0.0/24", ""), []string{"10.30.0.3", "10.30.0.2"}, routes, &off),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantSubnetOptions(t, f, []string{"10.30.0.3", "10.30.0.2"}, neutronRoutes, false)
			body := f.Neutron.Bodies("create subnet")[0]
			for _, want := range []string{`"dns_nameservers":["10.30.0.3","10.30.0.2"]`,
				`"host_routes":[{"destination":"10.99.0.0/16","nexthop":"10.30.0.254"},{"destination":"0.0.0.0/0","nexthop":"10.30.0.1"}]`,
				`"enable_dhcp":false`} {
				if !strings.Contains(body, want) {
					t.Errorf("create subnet sent %s, want it to carry %s", body, want)
				}
			}
		},
		wantObject: WantReady("10.30.0.1"),
	}, {
		name:       "new Network without the fields: Neutron's defaults sent in the create",
		object:     NewNetwork("defaults", "10.31.0.0/24", ""),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantSubnetOptions(t, f, nil, nil, true)
			body := f.Neutron.Bodies("create subnet")[0]
			if !strings.Contains(body, `"dns_nameservers":[],"host_routes":[],"enable_dhcp":true`) {
				t.Errorf("create subnet sent %s, want no DNS servers, no routes, DHCP on", body)
			}
		},
	}, {
		name:   "options in step with Neutron, routes in another order: nothing at all",
		object: withDHCPInStatus(withSubnetOptions(RealizedNetwork("steady-options", "10.30.0.0/24", ""), []string{"10.30.0.2"}, routes, &off), off),
		neutron: PutRealizedWith("10.30.0.0/24", func(s *neutron.Subnet) {
			s.DNSNameservers, s.HostRoutes, s.EnableDHCP = []string{"10.30.0.2"}, []neutron.HostRoute{neutronRoutes[1], neutronRoutes[0]}, false
		}),
		want: succeeds,
	}, {
		name:       "DNS servers changed in spec: one PUT with only dns_nameservers, same subnet",
		object:     WithGeneration(withSubnetOptions(RealizedNetwork("dns", "10.30.0.0/24", ""), []string{"10.30.0.2", "10.30.0.3"}, nil, nil), 2),
		neutron:    PutRealizedWith("10.30.0.0/24", func(s *neutron.Subnet) { s.DNSNameservers = []string{"10.30.0.3", "10.30.0.2"} }),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"dns_nameservers":["10.30.0.2","10.30.0.3"]}`)
			wantSubnetOptions(t, f, []string{"10.30.0.2", "10.30.0.3"}, nil, true)
		},
		wantObject: WantReady("10.30.0.1"),
	}, {
		name:       "host routes changed in spec: one PUT with only host_routes",
		object:     WithGeneration(withSubnetOptions(RealizedNetwork("routes", "10.30.0.0/24", ""), nil, routes[:1], nil), 2),
		neutron:    PutRealizedWith("10.30.0.0/24", func(s *neutron.Subnet) { s.HostRoutes = neutronRoutes }),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"host_routes":[{"destination":"10.99.0.0/16","nexthop":"10.30.0.254"}]}`)
			wantSubnetOptions(t, f, nil, neutronRoutes[:1], true)
		},
		wantObject: WantReady("10.30.0.1"),
	}, {
		name:       "DHCP turned off in spec: one PUT with only enable_dhcp",
		object:     WithGeneration(withSubnetOptions(RealizedNetwork("dhcp", "10.30.0.0/24", ""), nil, nil, &off), 2),
		neutron:    PutRealizedWith("10.30.0.0/24", nil),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"enable_dhcp":false}`)
			wantSubnetOptions(t, f, nil, nil, false)
		},
		wantObject: WantReady("10.30.0.1"),
	}, {
		name:   "DNS servers, a route and DHCP changed by hand in Neutron: restored in one PUT, status untouched",
		object: withSubnetOptions(RealizedNetwork("drift", "10.30.0.0/24", ""), nil, routes, nil),
		neutron: PutRealizedWith("10.30.0.0/24", func(s *neutron.Subnet) {
			s.DNSNameservers, s.HostRoutes, s.EnableDHCP = []string{"8.8.8.8"}, neutronRoutes[:1], false
		}),
		want:       succeeds,
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"dns_nameservers":[],"host_routes":[`+
				`{"destination":"10.99.0.0/16","nexthop":"10.30.0.254"},{"destination":"0.0.0.0/0","nexthop":"10.30.0.1"}],"enable_dhcp":true}`)
			wantSubnetOptions(t, f, nil, neutronRoutes, true)
		},
		wantObject: WantReady("10.30.0.1"),
	}}
}

func withSubnetOptions(n *samplecrdv1.Network, nameservers []string, routes []samplecrdv1.HostRoute, dhcp *bool) *samplecrdv1.Network {
	n.Spec.DNSNameservers, n.Spec.HostRoutes, n.Spec.EnableDHCP = nameservers, routes, dhcp
	return n
}

// withDHCPInStatus makes the Network's status report DHCP as on or off.
func withDHCPInStatus(n *samplecrdv1.Network, on bool) *samplecrdv1.Network {
	n.Status.EnableDHCP = &on
	return n
}

// wantSubnetOptions checks the one subnet Neutron holds.
func wantSubnetOptions(t *testing.T, f *Fixture, nameservers []string, routes []neutron.HostRoute, dhcp bool) {
	t.Helper()
	subnets := f.Neutron.Subnets()
	if len(subnets) != 1 {
		t.Fatalf("Neutron holds %d subnets, want 1", len(subnets))
	}
	s := subnets[0]
	if !slices.Equal(s.DNSNameservers, nameservers) && len(s.DNSNameservers)+len(nameservers) > 0 {
		t.Errorf("subnet DNS servers = %q, want %q", s.DNSNameservers, nameservers)
	}
	if !slices.Equal(s.HostRoutes, routes) && len(s.HostRoutes)+len(routes) > 0 {
		t.Errorf("subnet routes = %+v, want %+v", s.HostRoutes, routes)
	}
	if s.EnableDHCP != dhcp {
		t.Errorf("subnet enable_dhcp = %v, want %v", s.EnableDHCP, dhcp)
	}
}

// wantBodies checks the JSON bodies of every call of op.
func wantBodies(t *testing.T, f *Fixture, op string, want ...string) {
	t.Helper()
	if got := f.Neutron.Bodies(op); !slices.Equal(got, want) {
		t.Errorf("%s bodies = %q, want %q", op, got, want)
	}
}
