package subnetplan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestPlanOptionsValid(t *testing.T) {
	s, err := Plan(Spec{CIDR: "10.0.0.0/24",
		DNSNameservers: []string{"10.0.0.3", "192.0.2.53", "10.0.0.2"},
		HostRoutes:     []HostRoute{{"192.168.0.0/16", "10.0.0.254"}, {"0.0.0.0/0", "10.0.0.1"}},
		EnableDHCP:     true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var servers, routes []string
	for _, a := range s.DNSNameservers {
		servers = append(servers, a.String())
	}
	for _, r := range s.HostRoutes {
		routes = append(routes, r.Destination.String()+" via "+r.NextHop.String())
	}
	if want := []string{"10.0.0.3", "192.0.2.53", "10.0.0.2"}; !slices.Equal(servers, want) {
		t.Errorf("DNS servers = %v, want %v in that order", servers, want)
	}
	if want := []string{"192.168.0.0/16 via 10.0.0.254", "0.0.0.0/0 via 10.0.0.1"}; !slices.Equal(routes, want) {
		t.Errorf("routes = %v, want %v", routes, want)
	}
	if !s.EnableDHCP {
		t.Error("EnableDHCP = false, want true")
	}

	// The limits themselves are accepted, in IPv6 too.
	full := Spec{CIDR: "2001:db8::/64"}
	for i := range MaxDNSNameservers {
		full.DNSNameservers = append(full.DNSNameservers, fmt.Sprintf("2001:db8::%x", i+1))
	}
	for i := range MaxHostRoutes {
		full.HostRoutes = append(full.HostRoutes, HostRoute{fmt.Sprintf("2001:db8:%x::/48", i+1), "2001:db8::fe"})
	}
	if s, err := Plan(full); err != nil || len(s.DNSNameservers) != MaxDNSNameservers || len(s.HostRoutes) != MaxHostRoutes {
		t.Errorf("Plan at the limits: %d servers, %d routes, error %v", len(s.DNSNameservers), len(s.HostRoutes), err)
	}
}

func TestPlanOptionsInvalid(t *testing.T) {
	six := []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"}
	var many []HostRoute
	for i := range MaxHostRoutes + 1 {
		many = append(many, HostRoute{fmt.Sprintf("10.%d.0.0/16", i+1), "10.0.0.254"})
	}
	tests := []struct {
		name    string
		spec    Spec
		wantErr string
	}{
		{"too many DNS servers", Spec{CIDR: "10.0.0.0/24", DNSNameservers: six},
			"dnsNameservers lists 6 addresses: Neutron allows at most 5"},
		{"DNS server not an address", Spec{CIDR: "10.0.0.0/24", DNSNameservers: []string{"10.0.0.2", "dns.example.com"}},
			`dnsNameservers[1] "dns.example.com" is not a valid IPv4 or IPv6 address`},
		{"DNS server with a prefix length", Spec{CIDR: "10.0.0.0/24", DNSNameservers: []string{"10.0.0.2/32"}},
			`dnsNameservers[0] "10.0.0.2/32" is not a valid IPv4 or IPv6 address`},
		{"DNS server not canonical", Spec{CIDR: "10.0.0.0/24", DNSNameservers: []string{"2001:DB8::53"}},
			`dnsNameservers[0] "2001:DB8::53" is not in canonical form (IPv6 must be lower case, without leading zeros, with :: for the longest run of zeros): use 2001:db8::53`},
		{"IPv6 DNS server on an IPv4 subnet", Spec{CIDR: "10.0.0.0/24", DNSNameservers: []string{"10.0.0.2", "2001:db8::53"}},
			"dnsNameservers[1] 2001:db8::53 is IPv6 but cidr 10.0.0.0/24 is IPv4: a DNS server must be of the subnet's family"},
		{"IPv4 DNS server on an IPv6 subnet", Spec{CIDR: "2001:db8::/64", DNSNameservers: []string{"10.0.0.2"}},
			"dnsNameservers[0] 10.0.0.2 is IPv4 but cidr 2001:db8::/64 is IPv6: a DNS server must be of the subnet's family"},
		{"DNS server twice", Spec{CIDR: "10.0.0.0/24", DNSNameservers: []string{"10.0.0.2", "10.0.0.3", "10.0.0.2"}},
			"dnsNameservers[2] 10.0.0.2 repeats dnsNameservers[0]: list each server once"},
		{"too many routes", Spec{CIDR: "10.0.0.0/24", HostRoutes: many},
			"hostRoutes lists 21 routes: Neutron allows at most 20"},
		{"route destination not a CIDR", Spec{CIDR: "10.0.0.0/24", HostRoutes: []HostRoute{{"10.1.0.0", "10.0.0.254"}}},
			`hostRoutes[0].destination "10.1.0.0" is not a valid IPv4 or IPv6 CIDR`},
		{"route destination with host bits", Spec{CIDR: "10.0.0.0/24", HostRoutes: []HostRoute{{"10.1.2.3/16", "10.0.0.254"}}},
			`hostRoutes[0].destination "10.1.2.3/16" is not in canonical form (host bits must be zero): use 10.1.0.0/16`},
		{"route next hop not an address", Spec{CIDR: "10.0.0.0/24", HostRoutes: []HostRoute{{"10.1.0.0/16", "router"}}},
			`hostRoutes[0].nextHop "router" is not a valid IPv4 or IPv6 address`},
		{"route next hop missing", Spec{CIDR: "10.0.0.0/24", HostRoutes: []HostRoute{{"10.1.0.0/16", ""}}},
			`hostRoutes[0].nextHop "" is not a valid IPv4 or IPv6 address`},
		{"IPv6 destination on an IPv4 subnet", Spec{CIDR: "10.0.0.0/24", HostRoutes: []HostRoute{{"2001:db8::/64", "10.0.0.254"}}},
			"hostRoutes[0].destination 2001:db8::/64 is IPv6 but cidr 10.0.0.0/24 is IPv4: a route must be of the subnet's family"},
		{"IPv4 next hop on an IPv6 subnet", Spec{CIDR: "2001:db8::/64", HostRoutes: []HostRoute{{"2001:db8:1::/64", "10.0.0.254"}}},
			"hostRoutes[0].nextHop 10.0.0.254 is IPv4 but cidr 2001:db8::/64 is IPv6: a route must be of the subnet's family"},
		{"two routes to one destination", Spec{CIDR: "10.0.0.0/24", HostRoutes: []HostRoute{{"10.1.0.0/16", "10.0.0.254"}, {"10.1.0.0/16", "10.0.0.253"}}},
			"hostRoutes[1].destination 10.1.0.0/16 repeats hostRoutes[0]: one route per destination"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plan(tt.spec)
			if err == nil {
				t.Fatalf("Plan(%+v) = %+v, want an error containing %q", tt.spec, got, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Plan(%+v) error = %q, want it to contain %q", tt.spec, err, tt.wantErr)
			}
		})
	}
}
