package subnetplan

import (
	"net/netip"
	"strings"
	"testing"
)

// TestIPv6ModesEveryCombination tries every pair of modes (and a bad value) on IPv4, on an
// IPv6 /64 and on an IPv6 /80, with DHCP on and off, and checks the verdict against
// neutronAcceptsModes.
func TestIPv6ModesEveryCombination(t *testing.T) {
	values := []string{"", IPv6ModeSLAAC, IPv6ModeDHCPv6Stateful, IPv6ModeDHCPv6Stateless, "dhcpv6"}
	accepted := 0
	for _, cidr := range []string{"10.0.0.0/24", "2001:db8::/64", "2001:db8::/80"} {
		for _, address := range values {
			for _, ra := range values {
				for _, dhcp := range []bool{true, false} {
					spec := Spec{CIDR: cidr, EnableDHCP: dhcp, IPv6AddressMode: address, IPv6RAMode: ra}
					got, err := Plan(spec)
					want := neutronAcceptsModes(netip.MustParsePrefix(cidr), address, ra, dhcp)
					if want != (err == nil) {
						t.Errorf("Plan(%s, address %q, ra %q, dhcp %v): error %v, want accepted=%v", cidr, address, ra, dhcp, err, want)
						continue
					}
					if err != nil {
						continue
					}
					accepted++
					if got.IPv6AddressMode != address || got.IPv6RAMode != ra {
						t.Errorf("Plan(%s, %q, %q) planned modes %q, %q", cidr, address, ra, got.IPv6AddressMode, got.IPv6RAMode)
					}
				}
			}
		}
	}
	// IPv4: 2 (no modes, either DHCP). /64: 2 without modes, 3+3 one mode, 3 both. /80: 2
	// without modes, dhcpv6-stateful alone (2) or in both (1).
	if accepted != 2+11+5 {
		t.Errorf("%d combinations accepted, want 18", accepted)
	}
}

// neutronAcceptsModes is Neutron's check of the modes (neutron.db.db_base_plugin_v2:
// _validate_subnet, _validate_ipv6_attributes and the checks it calls), in Neutron's order.
func neutronAcceptsModes(prefix netip.Prefix, address, ra string, dhcp bool) bool {
	valid := map[string]bool{"": true, IPv6ModeSLAAC: true, IPv6ModeDHCPv6Stateful: true, IPv6ModeDHCPv6Stateless: true}
	if !valid[address] || !valid[ra] {
		return false // the API's value validator
	}
	raSet, addressSet := ra != "", address != ""
	if !raSet && !addressSet {
		return true
	}
	if prefix.Addr().Is4() {
		return false
	}
	if !dhcp {
		return false // _validate_ipv6_dhcp
	}
	if raSet && addressSet && ra != address {
		return false // _validate_ipv6_combination
	}
	auto := func(m string) bool { return m == IPv6ModeSLAAC || m == IPv6ModeDHCPv6Stateless }
	if (auto(address) || auto(ra)) && prefix.Bits() != 64 {
		return false // _validate_eui64_applicable
	}
	return true
}

func TestIPv6ModesMessages(t *testing.T) {
	for _, tt := range []struct {
		spec    Spec
		wantErr string
	}{
		{Spec{CIDR: "10.0.0.0/24", EnableDHCP: true, IPv6AddressMode: "slaac"},
			"ipv6AddressMode slaac is set but cidr 10.0.0.0/24 is IPv4: the IPv6 modes apply to IPv6 subnets only"},
		{Spec{CIDR: "2001:db8::/64", EnableDHCP: true, IPv6RAMode: "SLAAC"},
			`ipv6RAMode "SLAAC" is not one of slaac, dhcpv6-stateful, dhcpv6-stateless`},
		{Spec{CIDR: "2001:db8::/64", EnableDHCP: true, IPv6AddressMode: "slaac", IPv6RAMode: "dhcpv6-stateful"},
			"ipv6AddressMode slaac and ipv6RAMode dhcpv6-stateful differ: when both are set, Neutron needs them equal"},
		{Spec{CIDR: "2001:db8::/80", EnableDHCP: true, IPv6RAMode: "dhcpv6-stateless"},
			"ipv6RAMode dhcpv6-stateless needs a /64 cidr (hosts form their addresses by EUI-64), but cidr 2001:db8::/80 is a /80"},
		{Spec{CIDR: "2001:db8::/64", IPv6AddressMode: "dhcpv6-stateful"},
			"ipv6AddressMode dhcpv6-stateful is set but enableDHCP is false: Neutron refuses IPv6 modes on a subnet without DHCP"},
	} {
		if _, err := Plan(tt.spec); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Plan(%+v) error = %v, want %q", tt.spec, err, tt.wantErr)
		}
	}
}
