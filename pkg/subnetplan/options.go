package subnetplan

import (
	"fmt"
	"net/netip"
)

// Neutron's defaults for max_dns_nameservers and max_subnet_host_routes: a subnet with
// more is refused.
const (
	MaxDNSNameservers = 5
	MaxHostRoutes     = 20
)

// parseNameservers checks the DNS servers: canonical addresses of the family of prefix
// (Neutron refuses others), at most MaxDNSNameservers, each once. The order is kept:
// resolvers try the servers in that order.
func parseNameservers(prefix netip.Prefix, texts []string) ([]netip.Addr, error) {
	if len(texts) > MaxDNSNameservers {
		return nil, fmt.Errorf("dnsNameservers lists %d addresses: Neutron allows at most %d", len(texts), MaxDNSNameservers)
	}
	servers := make([]netip.Addr, 0, len(texts))
	for i, text := range texts {
		a, err := parseAddr(fmt.Sprintf("dnsNameservers[%d]", i), text)
		if err != nil {
			return nil, err
		}
		if f, want := family(a), family(prefix.Addr()); f != want {
			return nil, fmt.Errorf("dnsNameservers[%d] %s is IPv%d but cidr %s is IPv%d: a DNS server must be of the subnet's family",
				i, a, f, prefix, want)
		}
		for j, earlier := range servers {
			if earlier == a {
				return nil, fmt.Errorf("dnsNameservers[%d] %s repeats dnsNameservers[%d]: list each server once", i, a, j)
			}
		}
		servers = append(servers, a)
	}
	return servers, nil
}

// parseRoutes checks the host routes: a canonical destination and next hop, both of the
// family of prefix (Neutron refuses others), at most MaxHostRoutes, one per destination.
func parseRoutes(prefix netip.Prefix, given []HostRoute) ([]Route, error) {
	if len(given) > MaxHostRoutes {
		return nil, fmt.Errorf("hostRoutes lists %d routes: Neutron allows at most %d", len(given), MaxHostRoutes)
	}
	routes := make([]Route, 0, len(given))
	for i, r := range given {
		dst, err := parsePrefix(fmt.Sprintf("hostRoutes[%d].destination", i), r.Destination)
		if err != nil {
			return nil, err
		}
		hop, err := parseAddr(fmt.Sprintf("hostRoutes[%d].nextHop", i), r.NextHop)
		if err != nil {
			return nil, err
		}
		want := family(prefix.Addr())
		if f := family(dst.Addr()); f != want {
			return nil, fmt.Errorf("hostRoutes[%d].destination %s is IPv%d but cidr %s is IPv%d: a route must be of the subnet's family",
				i, dst, f, prefix, want)
		}
		if f := family(hop); f != want {
			return nil, fmt.Errorf("hostRoutes[%d].nextHop %s is IPv%d but cidr %s is IPv%d: a route must be of the subnet's family",
				i, hop, f, prefix, want)
		}
		for j, earlier := range routes {
			if earlier.Destination == dst {
				return nil, fmt.Errorf("hostRoutes[%d].destination %s repeats hostRoutes[%d]: one route per destination", i, dst, j)
			}
		}
		routes = append(routes, Route{Destination: dst, NextHop: hop})
	}
	return routes, nil
}
