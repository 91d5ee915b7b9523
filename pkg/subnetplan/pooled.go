package subnetplan

import (
	"fmt"
	"net/netip"
)

// PlanPooled validates the spec of a subnet whose range Neutron allocates from a subnet
// pool, a prefix of prefixLength bits, and returns the subnet to ask for: CIDR, IPVersion
// and Gateway are left to Neutron (the zero values), and so are the allocation pools. The
// range is unknown until the allocation, so gateway and allocationPools cannot be given;
// the addresses given must be of one family, which Neutron then checks against the pool's.
func PlanPooled(spec Spec, prefixLength int) (Subnet, error) {
	switch {
	case spec.Gateway != "":
		return Subnet{}, fmt.Errorf("gateway %s is set for a subnet allocated from a subnet pool, whose range is not known before: omit it (the gateway is then the first usable address)", spec.Gateway)
	case len(spec.AllocationPools) > 0:
		return Subnet{}, fmt.Errorf("allocationPools are set for a subnet allocated from a subnet pool, whose range is not known before: omit them")
	case spec.GatewayMode != "" && spec.GatewayMode != GatewayAutomatic && spec.GatewayMode != GatewayNone:
		return Subnet{}, fmt.Errorf("gatewayMode %q is neither Automatic nor None", spec.GatewayMode)
	case prefixLength < 1 || prefixLength > MaxPrefixLenIPv6:
		return Subnet{}, fmt.Errorf("prefixLength %d is not between 1 and %d", prefixLength, MaxPrefixLenIPv6)
	}
	like := familyOfOptions(spec, prefixLength)
	nameservers, err := parseNameservers(like, spec.DNSNameservers)
	if err != nil {
		return Subnet{}, err
	}
	routes, err := parseRoutes(like, spec.HostRoutes)
	if err != nil {
		return Subnet{}, err
	}
	if err := checkIPv6Modes(like, spec.IPv6AddressMode, spec.IPv6RAMode, spec.EnableDHCP); err != nil {
		return Subnet{}, err
	}
	return Subnet{DNSNameservers: nameservers, HostRoutes: routes, EnableDHCP: spec.EnableDHCP,
		IPv6AddressMode: spec.IPv6AddressMode, IPv6RAMode: spec.IPv6RAMode}, nil
}

// familyOfOptions returns a prefix of prefixLength bits of the family the options speak
// of (IPv6 with IPv6 modes, else the family of the first DNS server or route), which the
// checks of the options measure them against.
func familyOfOptions(spec Spec, prefixLength int) netip.Prefix {
	v6 := spec.IPv6AddressMode != "" || spec.IPv6RAMode != ""
	if !v6 && len(spec.DNSNameservers) > 0 {
		a, err := netip.ParseAddr(spec.DNSNameservers[0])
		v6 = err == nil && a.Is6()
	} else if !v6 && len(spec.HostRoutes) > 0 {
		p, err := netip.ParsePrefix(spec.HostRoutes[0].Destination)
		v6 = err == nil && p.Addr().Is6()
	}
	if v6 {
		return netip.PrefixFrom(netip.IPv6Unspecified(), prefixLength)
	}
	return netip.PrefixFrom(netip.IPv4Unspecified(), min(prefixLength, 32))
}
