package subnetplan

import (
	"fmt"
	"net/netip"
)

// Neutron's IPv6 modes: how hosts get addresses (ipv6_address_mode) and what the
// router advertisements say (ipv6_ra_mode).
const (
	IPv6ModeSLAAC           = "slaac"
	IPv6ModeDHCPv6Stateful  = "dhcpv6-stateful"
	IPv6ModeDHCPv6Stateless = "dhcpv6-stateless"
)

// checkIPv6Modes applies Neutron's rules on the two modes: known values, IPv6 only,
// equal when both are set, a /64 when either is slaac or dhcpv6-stateless (Neutron
// forms addresses by EUI-64), and DHCP enabled.
func checkIPv6Modes(prefix netip.Prefix, addressMode, raMode string, dhcp bool) error {
	modes := []struct{ field, value string }{{"ipv6AddressMode", addressMode}, {"ipv6RAMode", raMode}}
	for _, m := range modes {
		switch m.value {
		case "":
			continue
		case IPv6ModeSLAAC, IPv6ModeDHCPv6Stateful, IPv6ModeDHCPv6Stateless:
		default:
			return fmt.Errorf("%s %q is not one of %s, %s, %s", m.field, m.value,
				IPv6ModeSLAAC, IPv6ModeDHCPv6Stateful, IPv6ModeDHCPv6Stateless)
		}
		if prefix.Addr().Is4() {
			return fmt.Errorf("%s %s is set but cidr %s is IPv4: the IPv6 modes apply to IPv6 subnets only", m.field, m.value, prefix)
		}
		if !dhcp {
			return fmt.Errorf("%s %s is set but enableDHCP is false: Neutron refuses IPv6 modes on a subnet without DHCP", m.field, m.value)
		}
		if (m.value == IPv6ModeSLAAC || m.value == IPv6ModeDHCPv6Stateless) && prefix.Bits() != 64 {
			return fmt.Errorf("%s %s needs a /64 cidr (hosts form their addresses by EUI-64), but cidr %s is a /%d",
				m.field, m.value, prefix, prefix.Bits())
		}
	}
	if addressMode != "" && raMode != "" && addressMode != raMode {
		return fmt.Errorf("ipv6AddressMode %s and ipv6RAMode %s differ: when both are set, Neutron needs them equal", addressMode, raMode)
	}
	return nil
}
