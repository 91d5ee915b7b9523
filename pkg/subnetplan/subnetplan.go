// Package subnetplan turns the subnet part of a Network spec into the exact subnet the
// controller asks Neutron for: the validated prefix, its IP version, the effective
// gateway, the allocation pools, the DNS servers, the host routes and whether DHCP is on.
//
// It exists for two reasons. First, the CEL rules in crd/network.yaml only run in the
// apiserver (and not at all on objects stored before the rules existed), so the
// controller validates again with the same rules and reports a failure as a terminal
// InvalidSpec condition instead of sending Neutron something it rejects. Second, the
// controller always sends explicit allocation pools that leave the gateway out: if the
// gateway fell inside a pool Neutron would answer 409 GatewayConflictWithAllocationPools,
// for example when the gateway is changed on an existing subnet.
//
// The rules, which crd/network.yaml mirrors, are:
//   - cidr is an IPv4 or IPv6 prefix (no zone, no IPv4-mapped IPv6 address) written in
//     canonical form: host bits zero and the text netip.Prefix.String gives (so IPv6 in
//     lower case with the shortest form);
//   - the prefix leaves room for a gateway and at least one more address: at most /30
//     for IPv4 (a /31, even under RFC 3021, or a /32 has no address Neutron would
//     allocate beside the gateway), at most /126 for IPv6;
//   - gatewayMode is Automatic (or empty) or None; with None there is no gateway and
//     gateway must be empty;
//   - gateway, when set, is a canonical IP address of the same family, inside cidr,
//     not the network address (for IPv6 the subnet-router anycast address) and, for
//     IPv4, not the broadcast address;
//   - an empty gateway, in mode Automatic, means the first usable address, network
//     address + 1;
//   - allocationPools, when set, are at most 16 ranges of canonical addresses of the
//     family of cidr, each inside its usable addresses (see below), start <= end, not
//     holding the gateway, and not overlapping one another;
//   - dnsNameservers are at most 5 canonical IP addresses of the family of cidr, each once;
//   - hostRoutes are at most 20, each a canonical destination CIDR and a canonical
//     nextHop address, both of the family of cidr, one route per destination;
//   - ipv6AddressMode and ipv6RAMode, each optional, are Neutron's rules: IPv6 only,
//     equal when both are set, a /64 for slaac and dhcpv6-stateless, DHCP enabled.
//
// Usable means what Neutron itself allocates from: for IPv4 everything but the network
// and broadcast addresses, for IPv6 everything but the subnet-router anycast address.
// Without explicit pools the pools are every usable address except the gateway: a
// gateway at either end gives one pool and a gateway in the middle gives two.
//
// Everything is computed with net/netip arithmetic, never by enumerating addresses, so
// an IPv6 /64 (or a /0) costs the same as an IPv4 /30.
package subnetplan

import (
	"fmt"
	"net/netip"
)

// Limits on the prefix length: the longest prefixes that still hold a gateway and at
// least one more allocatable address.
const (
	MaxPrefixLenIPv4 = 30
	MaxPrefixLenIPv6 = 126
)

// Gateway modes: a gateway (given, or the first usable address), or none.
const (
	GatewayAutomatic = "Automatic"
	GatewayNone      = "None"
)

// Spec is what a Network spec says about its subnet, as the user wrote it.
type Spec struct {
	CIDR string
	// GatewayMode is GatewayAutomatic (also when empty) or GatewayNone.
	GatewayMode string
	// Gateway empty means the first usable address, in mode Automatic.
	Gateway string
	// AllocationPools empty means every usable address but the gateway.
	AllocationPools []PoolRange
	DNSNameservers  []string
	HostRoutes      []HostRoute
	EnableDHCP      bool
	// IPv6AddressMode and IPv6RAMode are Neutron's values; empty means not set.
	IPv6AddressMode string
	IPv6RAMode      string
}

// HostRoute is a route as the user wrote it.
type HostRoute struct {
	Destination string
	NextHop     string
}

// PoolRange is an allocation pool as the user wrote it.
type PoolRange struct {
	Start string
	End   string
}

// Subnet is the planned Neutron subnet.
type Subnet struct {
	// CIDR is the subnet's prefix, canonical (masked).
	CIDR netip.Prefix
	// IPVersion is 4 or 6, Neutron's ip_version.
	IPVersion int
	// Gateway is the gateway address: the one in the spec, or the first usable address.
	// It is the zero Addr (not valid) for a subnet without gateway.
	Gateway netip.Addr
	// AllocationPools are the explicit pools in the order given or, without them, all
	// usable addresses of CIDR except Gateway, in ascending order. Never empty.
	AllocationPools []Pool
	// DNSNameservers in the order given: resolvers try them in that order.
	DNSNameservers []netip.Addr
	// HostRoutes in the order given, each of the family of CIDR.
	HostRoutes []Route
	EnableDHCP bool
	// IPv6AddressMode and IPv6RAMode as given: empty, or one of the IPv6Mode constants.
	IPv6AddressMode string
	IPv6RAMode      string
}

// Route is a host route the subnet's DHCP hands out: Destination via NextHop.
type Route struct {
	Destination netip.Prefix
	NextHop     netip.Addr
}

// Pool is an inclusive range of addresses, Neutron's allocation_pools element. It
// marshals to JSON as {"start": "...", "end": "..."}.
type Pool struct {
	Start netip.Addr `json:"start"`
	End   netip.Addr `json:"end"`
}

// String returns the pool as "start-end".
func (p Pool) String() string {
	return p.Start.String() + "-" + p.End.String()
}

// Plan validates spec and returns the subnet to create. The error message is written for
// the user: the controller puts it in the Ready condition.
func Plan(spec Spec) (Subnet, error) {
	prefix, err := parseCIDR(spec.CIDR)
	if err != nil {
		return Subnet{}, err
	}
	gateway, err := planGateway(prefix, spec.GatewayMode, spec.Gateway)
	if err != nil {
		return Subnet{}, err
	}
	pools := defaultPools(prefix, gateway)
	if len(spec.AllocationPools) > 0 {
		if pools, err = parsePools(prefix, gateway, spec.Gateway == "", spec.AllocationPools); err != nil {
			return Subnet{}, err
		}
	}
	nameservers, err := parseNameservers(prefix, spec.DNSNameservers)
	if err != nil {
		return Subnet{}, err
	}
	routes, err := parseRoutes(prefix, spec.HostRoutes)
	if err != nil {
		return Subnet{}, err
	}
	if err := checkIPv6Modes(prefix, spec.IPv6AddressMode, spec.IPv6RAMode, spec.EnableDHCP); err != nil {
		return Subnet{}, err
	}
	return Subnet{CIDR: prefix, IPVersion: family(prefix.Addr()), Gateway: gateway, AllocationPools: pools,
		DNSNameservers: nameservers, HostRoutes: routes, EnableDHCP: spec.EnableDHCP,
		IPv6AddressMode: spec.IPv6AddressMode, IPv6RAMode: spec.IPv6RAMode}, nil
}

// planGateway validates the gateway mode and gateway (empty means the first usable
// address) and returns the effective gateway, the zero Addr in mode None.
func planGateway(prefix netip.Prefix, mode, gateway string) (netip.Addr, error) {
	switch mode {
	case "", GatewayAutomatic:
	case GatewayNone:
		if gateway != "" {
			return netip.Addr{}, fmt.Errorf("gateway %s is set but gatewayMode is None (a subnet without gateway): remove gateway or set gatewayMode to Automatic", gateway)
		}
		return netip.Addr{}, nil
	default:
		return netip.Addr{}, fmt.Errorf("gatewayMode %q is neither Automatic nor None", mode)
	}
	firstUsable, lastUsable := usableRange(prefix)
	if gateway == "" {
		return firstUsable, nil
	}
	network := prefix.Addr()
	version := family(network)
	gw, err := parseAddr("gateway", gateway)
	if err != nil {
		return netip.Addr{}, err
	}
	if gw.Is4() != network.Is4() {
		return netip.Addr{}, fmt.Errorf("gateway %s is an IPv%d address but cidr %s is IPv%d: they must be the same family",
			gw, family(gw), prefix, version)
	}
	if !prefix.Contains(gw) {
		return netip.Addr{}, fmt.Errorf("gateway %s is not inside cidr %s: use an address from %s to %s",
			gw, prefix, firstUsable, lastUsable)
	}
	if gw == network {
		return netip.Addr{}, fmt.Errorf("gateway %s is the %s of %s: use an address from %s to %s",
			gw, networkAddressName(version), prefix, firstUsable, lastUsable)
	}
	if version == 4 && gw == lastAddr(prefix) {
		return netip.Addr{}, fmt.Errorf("gateway %s is the broadcast address of %s: use an address from %s to %s",
			gw, prefix, firstUsable, lastUsable)
	}
	return gw, nil
}

// usableRange returns the first and last address Neutron allocates from in prefix: all
// but the network address and, for IPv4, the broadcast address.
func usableRange(prefix netip.Prefix) (first, last netip.Addr) {
	first, last = prefix.Addr().Next(), lastAddr(prefix)
	if prefix.Addr().Is4() {
		last = last.Prev()
	}
	return first, last
}

func networkAddressName(version int) string {
	if version == 6 {
		return "network (subnet-router anycast) address"
	}
	return "network address"
}

// parseCIDR parses and checks cidr: valid (as the apiserver's isCIDR sees it),
// canonical, and large enough.
func parseCIDR(cidr string) (netip.Prefix, error) {
	prefix, err := parsePrefix("cidr", cidr)
	if err != nil {
		return netip.Prefix{}, err
	}
	if maxLen := maxPrefixLen(prefix.Addr()); prefix.Bits() > maxLen {
		return netip.Prefix{}, fmt.Errorf("cidr %s is too small: an IPv%d subnet needs a prefix length of /%d or shorter, to hold a gateway and at least one more address",
			cidr, family(prefix.Addr()), maxLen)
	}
	return prefix, nil
}

// parsePrefix parses the prefix text of field as the apiserver's isCIDR does (no zone,
// no IPv4-mapped IPv6) and requires canonical text, so that it compares equal, as a
// string, to what Neutron reports.
func parsePrefix(field, text string) (netip.Prefix, error) {
	prefix, err := netip.ParsePrefix(text)
	if err != nil || prefix.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("%s %q is not a valid IPv4 or IPv6 CIDR such as 192.168.0.0/16 or 2001:db8::/64", field, text)
	}
	if canonical := prefix.Masked().String(); canonical != text {
		what := "host bits must be zero"
		if prefix.Masked() == prefix {
			what = "IPv6 must be lower case, without leading zeros, with :: for the longest run of zeros"
		}
		return netip.Prefix{}, fmt.Errorf("%s %q is not in canonical form (%s): use %s", field, text, what, canonical)
	}
	return prefix, nil
}

// parseAddr parses the address text of field as the apiserver's isIP does (no zone, no
// IPv4-mapped IPv6) and requires canonical text, so that it compares equal, as a string,
// to what Neutron reports.
func parseAddr(field, text string) (netip.Addr, error) {
	a, err := netip.ParseAddr(text)
	if err != nil || a.Zone() != "" || a.Is4In6() {
		return netip.Addr{}, fmt.Errorf("%s %q is not a valid IPv4 or IPv6 address", field, text)
	}
	if a.String() != text {
		return netip.Addr{}, fmt.Errorf("%s %q is not in canonical form (IPv6 must be lower case, without leading zeros, with :: for the longest run of zeros): use %s",
			field, text, a)
	}
	return a, nil
}

func maxPrefixLen(a netip.Addr) int {
	if a.Is4() {
		return MaxPrefixLenIPv4
	}
	return MaxPrefixLenIPv6
}

func family(a netip.Addr) int {
	if a.Is4() {
		return 4
	}
	return 6
}

// lastAddr returns the highest address of p (for IPv4 the broadcast address): the
// address of p with every bit after the prefix set.
func lastAddr(p netip.Prefix) netip.Addr {
	a := p.Masked().Addr()
	b := a.AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	last, _ := netip.AddrFromSlice(b)
	return last
}
