package subnetplan

import (
	"encoding/json"
	"net/netip"
	"strings"
	"testing"
)

func TestPlanValid(t *testing.T) {
	tests := []struct {
		name, cidr, gateway string
		wantVersion         int
		wantGateway         string
		wantPools           []string
	}{
		{"tutorial", "192.168.0.0/16", "192.168.0.1", 4, "192.168.0.1", []string{"192.168.0.2-192.168.255.254"}},
		{"ipv4 default gateway", "10.0.0.0/24", "", 4, "10.0.0.1", []string{"10.0.0.2-10.0.0.254"}},
		{"ipv4 gateway in the middle", "10.0.0.0/24", "10.0.0.100", 4, "10.0.0.100", []string{"10.0.0.1-10.0.0.99", "10.0.0.101-10.0.0.254"}},
		{"ipv4 gateway at the end", "10.0.0.0/24", "10.0.0.254", 4, "10.0.0.254", []string{"10.0.0.1-10.0.0.253"}},
		{"ipv4 gateway next to the start", "10.0.0.0/24", "10.0.0.2", 4, "10.0.0.2", []string{"10.0.0.1-10.0.0.1", "10.0.0.3-10.0.0.254"}},
		{"ipv4 /30 default", "10.0.0.4/30", "", 4, "10.0.0.5", []string{"10.0.0.6-10.0.0.6"}},
		{"ipv4 /30 gateway last usable", "10.0.0.4/30", "10.0.0.6", 4, "10.0.0.6", []string{"10.0.0.5-10.0.0.5"}},
		{"ipv4 /29 across octet", "10.0.0.248/29", "10.0.0.250", 4, "10.0.0.250", []string{"10.0.0.249-10.0.0.249", "10.0.0.251-10.0.0.254"}},
		{"ipv4 /23 across octet", "10.0.0.0/23", "10.0.1.0", 4, "10.0.1.0", []string{"10.0.0.1-10.0.0.255", "10.0.1.1-10.0.1.254"}},
		{"ipv4 /8", "10.0.0.0/8", "", 4, "10.0.0.1", []string{"10.0.0.2-10.255.255.254"}},
		{"ipv4 /0", "0.0.0.0/0", "", 4, "0.0.0.1", []string{"0.0.0.2-255.255.255.254"}},
		{"ipv4 /0 gateway at the top", "0.0.0.0/0", "255.255.255.254", 4, "255.255.255.254", []string{"0.0.0.1-255.255.255.253"}},
		{"ipv6 tutorial", "2001:db8:1::/64", "2001:db8:1::1", 6, "2001:db8:1::1", []string{"2001:db8:1::2-2001:db8:1:0:ffff:ffff:ffff:ffff"}},
		{"ipv6 default gateway", "2001:db8::/64", "", 6, "2001:db8::1", []string{"2001:db8::2-2001:db8::ffff:ffff:ffff:ffff"}},
		{"ipv6 gateway is the last address (no broadcast in IPv6)", "2001:db8::/64", "2001:db8::ffff:ffff:ffff:ffff", 6, "2001:db8::ffff:ffff:ffff:ffff", []string{"2001:db8::1-2001:db8::ffff:ffff:ffff:fffe"}},
		{"ipv6 gateway in the middle", "2001:db8::/64", "2001:db8:0:0:8000::", 6, "2001:db8:0:0:8000::", []string{"2001:db8::1-2001:db8::7fff:ffff:ffff:ffff", "2001:db8::8000:0:0:1-2001:db8::ffff:ffff:ffff:ffff"}},
		{"ipv6 /126", "2001:db8::/126", "", 6, "2001:db8::1", []string{"2001:db8::2-2001:db8::3"}},
		{"ipv6 /48 across the 64-bit halves", "2001:db8:1::/48", "2001:db8:1:ffff:ffff:ffff:ffff:fffe", 6, "2001:db8:1:ffff:ffff:ffff:ffff:fffe", []string{"2001:db8:1::1-2001:db8:1:ffff:ffff:ffff:ffff:fffd", "2001:db8:1:ffff:ffff:ffff:ffff:ffff-2001:db8:1:ffff:ffff:ffff:ffff:ffff"}},
		{"ipv6 /0", "::/0", "", 6, "::1", []string{"::2-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}},
		{"ipv6 with embedded-ipv4 looking prefix", "64:ff9b::/96", "64:ff9b::a00:1", 6, "64:ff9b::a00:1", []string{"64:ff9b::1-64:ff9b::a00:0", "64:ff9b::a00:2-64:ff9b::ffff:ffff"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plan(Spec{CIDR: tt.cidr, Gateway: tt.gateway})
			if err != nil {
				t.Fatalf("Plan(%q, %q): unexpected error: %v", tt.cidr, tt.gateway, err)
			}
			if got.CIDR.String() != tt.cidr {
				t.Errorf("CIDR = %s, want %s", got.CIDR, tt.cidr)
			}
			if got.IPVersion != tt.wantVersion {
				t.Errorf("IPVersion = %d, want %d", got.IPVersion, tt.wantVersion)
			}
			if got.Gateway.String() != tt.wantGateway {
				t.Errorf("Gateway = %s, want %s", got.Gateway, tt.wantGateway)
			}
			var pools []string
			for _, p := range got.AllocationPools {
				pools = append(pools, p.String())
			}
			if strings.Join(pools, " ") != strings.Join(tt.wantPools, " ") {
				t.Errorf("AllocationPools = %v, want %v", pools, tt.wantPools)
			}
			checkInvariants(t, got)
		})
	}
}

// checkInvariants checks what Neutron requires of the pools whatever the input: inside
// the CIDR, ordered, disjoint, never holding the gateway, the network address or the
// IPv4 broadcast address, and with the gateway they cover every usable address.
func checkInvariants(t *testing.T, s Subnet) {
	t.Helper()
	if len(s.AllocationPools) == 0 || len(s.AllocationPools) > 2 {
		t.Fatalf("got %d pools, want 1 or 2", len(s.AllocationPools))
	}
	network, last := s.CIDR.Addr(), lastAddr(s.CIDR)
	lastUsable := last
	if s.IPVersion == 4 {
		lastUsable = last.Prev()
	}
	// Walk the usable range: pool, gateway, pool in order with no gap. covered is the
	// last address accounted for so far (Next of the last address is invalid, so do
	// not step past the end).
	covered := network
	gatewaySeen := false
	for i, p := range s.AllocationPools {
		if !s.CIDR.Contains(p.Start) || !s.CIDR.Contains(p.End) {
			t.Errorf("pool %d %s is not inside %s", i, p, s.CIDR)
		}
		if p.End.Less(p.Start) {
			t.Errorf("pool %d %s ends before it starts", i, p)
		}
		if !s.Gateway.Less(p.Start) && !p.End.Less(s.Gateway) {
			t.Errorf("pool %d %s holds the gateway %s", i, p, s.Gateway)
		}
		if p.Start == network || p.End == network || (s.IPVersion == 4 && (p.Start == last || p.End == last)) {
			t.Errorf("pool %d %s holds a reserved address of %s", i, p, s.CIDR)
		}
		if covered.Next() == s.Gateway {
			covered = s.Gateway
			gatewaySeen = true
		}
		if p.Start != covered.Next() {
			t.Errorf("pool %d starts at %s, want %s", i, p.Start, covered.Next())
		}
		covered = p.End
	}
	if !gatewaySeen && covered.Next() == s.Gateway {
		covered = s.Gateway
		gatewaySeen = true
	}
	if !gatewaySeen {
		t.Errorf("gateway %s is not between or next to the pools %v", s.Gateway, s.AllocationPools)
	}
	if covered != lastUsable {
		t.Errorf("usable range ends at %s, want %s", covered, lastUsable)
	}
}

func TestPlanInvalid(t *testing.T) {
	tests := []struct {
		name, cidr, gateway string
		wantErr             string
	}{
		{"empty cidr", "", "", `cidr "" is not a valid IPv4 or IPv6 CIDR such as 192.168.0.0/16 or 2001:db8::/64`},
		{"garbage cidr", "not-a-cidr", "", `cidr "not-a-cidr" is not a valid IPv4 or IPv6 CIDR`},
		{"address without prefix length", "10.0.0.0", "", `cidr "10.0.0.0" is not a valid`},
		{"prefix too long", "10.0.0.0/33", "", `cidr "10.0.0.0/33" is not a valid`},
		{"ipv6 prefix too long", "2001:db8::/129", "", `cidr "2001:db8::/129" is not a valid`},
		{"ipv4 leading zero octet", "10.0.0.010/24", "", `cidr "10.0.0.010/24" is not a valid`},
		{"leading zero prefix length", "10.0.0.0/024", "", `cidr "10.0.0.0/024" is not a valid`},
		{"ipv4-mapped ipv6", "::ffff:10.0.0.0/120", "", `cidr "::ffff:10.0.0.0/120" is not a valid`},
		{"zone", "fe80::%eth0/64", "", `cidr "fe80::%eth0/64" is not a valid`},
		{"spaces", " 10.0.0.0/24", "", `cidr " 10.0.0.0/24" is not a valid`},
		{"host bits set", "10.0.0.1/24", "", `cidr "10.0.0.1/24" is not in canonical form (host bits must be zero): use 10.0.0.0/24`},
		{"ipv6 host bits set", "2001:db8::1/64", "", `cidr "2001:db8::1/64" is not in canonical form (host bits must be zero): use 2001:db8::/64`},
		{"ipv6 upper case", "2001:DB8::/64", "", `cidr "2001:DB8::/64" is not in canonical form (IPv6 must be lower case, without leading zeros, with :: for the longest run of zeros): use 2001:db8::/64`},
		{"ipv6 leading zeros", "2001:0db8::/64", "", `use 2001:db8::/64`},
		{"ipv6 uncompressed", "2001:db8:0:0:0:0:0:0/64", "", `use 2001:db8::/64`},
		{"ipv6 dotted tail", "::10.0.0.0/120", "", `use ::a00:0/120`},
		{"ipv4 /31 (RFC 3021)", "10.0.0.0/31", "", `cidr 10.0.0.0/31 is too small: an IPv4 subnet needs a prefix length of /30 or shorter, to hold a gateway and at least one more address`},
		{"ipv4 /32", "10.0.0.1/32", "10.0.0.1", `cidr 10.0.0.1/32 is too small`},
		{"ipv6 /127", "2001:db8::/127", "", `cidr 2001:db8::/127 is too small: an IPv6 subnet needs a prefix length of /126 or shorter`},
		{"ipv6 /128", "2001:db8::1/128", "", `cidr 2001:db8::1/128 is too small`},
		{"garbage gateway", "10.0.0.0/24", "gw", `gateway "gw" is not a valid IPv4 or IPv6 address`},
		{"gateway with prefix length", "10.0.0.0/24", "10.0.0.1/24", `gateway "10.0.0.1/24" is not a valid IPv4 or IPv6 address`},
		{"gateway with zone", "fe80::/64", "fe80::1%eth0", `gateway "fe80::1%eth0" is not a valid`},
		{"ipv4-mapped gateway", "10.0.0.0/24", "::ffff:10.0.0.1", `gateway "::ffff:10.0.0.1" is not a valid`},
		{"gateway leading zero octet", "10.0.0.0/24", "10.0.0.01", `gateway "10.0.0.01" is not a valid`},
		{"gateway upper case", "2001:db8::/64", "2001:DB8::1", `gateway "2001:DB8::1" is not in canonical form (IPv6 must be lower case, without leading zeros, with :: for the longest run of zeros): use 2001:db8::1`},
		{"ipv6 gateway on ipv4 cidr", "10.0.0.0/24", "2001:db8::1", `gateway 2001:db8::1 is an IPv6 address but cidr 10.0.0.0/24 is IPv4: they must be the same family`},
		{"ipv4 gateway on ipv6 cidr", "2001:db8::/64", "10.0.0.1", `gateway 10.0.0.1 is an IPv4 address but cidr 2001:db8::/64 is IPv6: they must be the same family`},
		{"gateway outside", "10.0.0.0/24", "10.0.1.1", `gateway 10.0.1.1 is not inside cidr 10.0.0.0/24: use an address from 10.0.0.1 to 10.0.0.254`},
		{"gateway just below", "10.0.0.0/24", "9.255.255.255", `gateway 9.255.255.255 is not inside cidr 10.0.0.0/24`},
		{"ipv6 gateway outside", "2001:db8::/64", "2001:db8:0:1::1", `gateway 2001:db8:0:1::1 is not inside cidr 2001:db8::/64: use an address from 2001:db8::1 to 2001:db8::ffff:ffff:ffff:ffff`},
		{"gateway is the network address", "10.0.0.0/24", "10.0.0.0", `gateway 10.0.0.0 is the network address of 10.0.0.0/24: use an address from 10.0.0.1 to 10.0.0.254`},
		{"ipv6 gateway is the network address", "2001:db8::/64", "2001:db8::", `gateway 2001:db8:: is the network (subnet-router anycast) address of 2001:db8::/64: use an address from 2001:db8::1 to 2001:db8::ffff:ffff:ffff:ffff`},
		{"gateway is the broadcast address", "10.0.0.0/24", "10.0.0.255", `gateway 10.0.0.255 is the broadcast address of 10.0.0.0/24: use an address from 10.0.0.1 to 10.0.0.254`},
		{"gateway is the broadcast address of a /30", "10.0.0.4/30", "10.0.0.7", `gateway 10.0.0.7 is the broadcast address of 10.0.0.4/30`},
		{"gateway is 255.255.255.255", "0.0.0.0/0", "255.255.255.255", `gateway 255.255.255.255 is the broadcast address of 0.0.0.0/0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plan(Spec{CIDR: tt.cidr, Gateway: tt.gateway})
			if err == nil {
				t.Fatalf("Plan(%q, %q) = %+v, want an error containing %q", tt.cidr, tt.gateway, got, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Plan(%q, %q) error = %q, want it to contain %q", tt.cidr, tt.gateway, err, tt.wantErr)
			}
		})
	}
}

// TestPlanEveryGateway tries every gateway of small prefixes, both families, and checks
// the verdict against a brute-force enumeration of the usable addresses.
func TestPlanEveryGateway(t *testing.T) {
	for _, cidr := range []string{"10.0.0.0/30", "10.0.0.8/29", "192.168.1.0/28", "2001:db8::/126", "2001:db8::10/125", "2001:db8::/124"} {
		prefix := netip.MustParsePrefix(cidr)
		var all []netip.Addr
		for a := prefix.Addr(); prefix.Contains(a); a = a.Next() {
			all = append(all, a)
		}
		usable := all[1:]
		if prefix.Addr().Is4() {
			usable = usable[:len(usable)-1]
		}
		isUsable := map[netip.Addr]bool{}
		for _, a := range usable {
			isUsable[a] = true
		}
		// Every address of the prefix and one on each side of it.
		candidates := append([]netip.Addr{all[0].Prev()}, all...)
		candidates = append(candidates, all[len(all)-1].Next())
		for _, gw := range candidates {
			got, err := Plan(Spec{CIDR: cidr, Gateway: gw.String()})
			if !isUsable[gw] {
				if err == nil {
					t.Errorf("Plan(%s, %s) accepted a gateway that is not usable: %+v", cidr, gw, got)
				}
				continue
			}
			if err != nil {
				t.Errorf("Plan(%s, %s): unexpected error: %v", cidr, gw, err)
				continue
			}
			checkInvariants(t, got)
			n := 0
			for _, p := range got.AllocationPools {
				for a := p.Start; ; a = a.Next() {
					n++
					if a == p.End {
						break
					}
				}
			}
			if n != len(usable)-1 {
				t.Errorf("Plan(%s, %s): pools %v hold %d addresses, want %d", cidr, gw, got.AllocationPools, n, len(usable)-1)
			}
		}
	}
}

func TestLastAddr(t *testing.T) {
	for cidr, want := range map[string]string{
		"10.0.0.0/24":     "10.0.0.255",
		"10.0.0.0/8":      "10.255.255.255",
		"10.0.0.4/30":     "10.0.0.7",
		"10.0.0.1/32":     "10.0.0.1",
		"0.0.0.0/0":       "255.255.255.255",
		"172.16.0.0/12":   "172.31.255.255",
		"2001:db8::/64":   "2001:db8::ffff:ffff:ffff:ffff",
		"2001:db8::/63":   "2001:db8:0:1:ffff:ffff:ffff:ffff",
		"2001:db8::/65":   "2001:db8::7fff:ffff:ffff:ffff",
		"2001:db8::/32":   "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
		"::/0":            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
		"2001:db8::1/128": "2001:db8::1",
	} {
		if got := lastAddr(netip.MustParsePrefix(cidr)).String(); got != want {
			t.Errorf("lastAddr(%s) = %s, want %s", cidr, got, want)
		}
	}
}

func TestPoolJSON(t *testing.T) {
	s, err := Plan(Spec{CIDR: "10.0.0.0/24", Gateway: "10.0.0.10"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s.AllocationPools)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"start":"10.0.0.1","end":"10.0.0.9"},{"start":"10.0.0.11","end":"10.0.0.254"}]`
	if string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
}
