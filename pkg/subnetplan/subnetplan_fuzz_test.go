package subnetplan

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzPlan feeds Plan arbitrary cidr, gateway, DNS server and host route text (the lists
// comma-separated, a route as destination>nextHop). Plan must never panic, and whatever
// it accepts must be a subnet Neutron takes as is: the text was canonical, the gateway
// lies inside the CIDR and is neither its network address nor (IPv4) its broadcast
// address, the pools (checked by checkInvariants) stay inside the CIDR and hold no
// reserved address, and the DNS servers and routes are within Neutron's limits, each
// once, all of the subnet's family. The seed corpus runs with the unit tests.
func FuzzPlan(f *testing.F) {
	for _, seed := range [][4]string{
		{"10.0.0.0/24", "", "10.0.0.2,10.0.0.3", "10.1.0.0/16>10.0.0.254"},
		{"10.0.0.0/24", "", "2001:db8::53", "0.0.0.0/0>10.0.0.1,192.168.0.0/24>10.0.0.9"},
		{"10.0.0.0/24", "", "10.0.0.2,10.0.0.2", ""},
		{"10.0.0.0/24", "", "1.1.1.1,1.0.0.1,8.8.8.8,8.8.4.4,9.9.9.9,149.112.112.112", ""},
		{"10.0.0.0/24", "", "", "10.1.0.0/16>10.0.0.254,10.1.0.0/16>10.0.0.253"},
		{"10.0.0.0/24", "", "", "10.1.0.1/16>10.0.0.254"},
		{"10.0.0.0/24", "", "", "2001:db8::/64>10.0.0.1"},
		{"10.0.0.0/24", "", "", "10.1.0.0/16>2001:db8::1"},
		{"10.0.0.0/24", "", "", "10.1.0.0/16"},
		{"2001:db8::/64", "", "2001:db8::53,2001:db8::54", "2001:db8:1::/64>2001:db8::fe"},
		{"2001:db8::/64", "", "2001:db8::53,10.0.0.53", ""},
		{"2001:db8::/64", "", "2001:DB8::53", "2001:db8:1::/64>2001:DB8::fe"},
		{"2001:db8::/64", "", "fe80::1%eth0", "::ffff:10.0.0.0/104>2001:db8::1"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	for _, seed := range [][2]string{
		{"192.168.0.0/16", "192.168.0.1"},
		{"10.0.0.0/24", ""},
		{"10.0.0.0/24", "10.0.0.255"},
		{"10.0.0.0/24", "10.0.0.0"},
		{"10.0.0.4/30", "10.0.0.6"},
		{"10.0.0.0/31", ""},
		{"10.0.0.1/32", ""},
		{"10.0.0.1/24", ""},
		{"0.0.0.0/0", "255.255.255.255"},
		{"2001:db8::/64", ""},
		{"2001:db8::/64", "2001:db8::"},
		{"2001:db8::/64", "2001:db8::ffff:ffff:ffff:ffff"},
		{"2001:db8::/126", "2001:db8::3"},
		{"2001:db8::/127", ""},
		{"2001:DB8::/64", ""},
		{"::/0", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
		{"::ffff:10.0.0.0/104", ""},
		{"fe80::/64", "fe80::1%eth0"},
		{"10.0.0.0/24", "2001:db8::1"},
		{"2001:db8::/64", "10.0.0.1"},
		{"10.0.0.0/24", "010.0.0.1"},
		{"", ""},
		{"banana", "10.0.0.1"},
	} {
		f.Add(seed[0], seed[1], "", "")
	}
	f.Fuzz(func(t *testing.T, cidr, gateway, nameservers, routes string) {
		s, err := Plan(Spec{CIDR: cidr, Gateway: gateway, DNSNameservers: splitList(nameservers), HostRoutes: splitRoutes(routes)})
		if err != nil {
			if err.Error() == "" {
				t.Errorf("Plan(%q, %q): empty error message", cidr, gateway)
			}
			return
		}
		checkOptions(t, s, splitList(nameservers), splitRoutes(routes))
		if s.CIDR.String() != cidr {
			t.Errorf("Plan(%q, %q) accepted a cidr that is not canonical: planned %s", cidr, gateway, s.CIDR)
		}
		if s.CIDR != s.CIDR.Masked() {
			t.Errorf("Plan(%q, %q): CIDR %s has host bits set", cidr, gateway, s.CIDR)
		}
		wantVersion, maxBits := 4, MaxPrefixLenIPv4
		if s.CIDR.Addr().Is6() {
			wantVersion, maxBits = 6, MaxPrefixLenIPv6
		}
		if s.IPVersion != wantVersion || s.CIDR.Bits() > maxBits {
			t.Errorf("Plan(%q, %q): IP version %d, prefix /%d", cidr, gateway, s.IPVersion, s.CIDR.Bits())
		}
		if gateway != "" && s.Gateway.String() != gateway {
			t.Errorf("Plan(%q, %q): gateway %s, want the one asked for", cidr, gateway, s.Gateway)
		}
		if !s.CIDR.Contains(s.Gateway) {
			t.Errorf("Plan(%q, %q): gateway %s is outside %s", cidr, gateway, s.Gateway, s.CIDR)
		}
		if s.Gateway == s.CIDR.Addr() {
			t.Errorf("Plan(%q, %q): gateway %s is the network address", cidr, gateway, s.Gateway)
		}
		if s.IPVersion == 4 && s.Gateway == lastAddr(s.CIDR) {
			t.Errorf("Plan(%q, %q): gateway %s is the broadcast address", cidr, gateway, s.Gateway)
		}
		for _, p := range s.AllocationPools {
			if p.Start.Is4() != s.CIDR.Addr().Is4() || p.End.Is4() != s.CIDR.Addr().Is4() {
				t.Errorf("Plan(%q, %q): pool %s is of another family than %s", cidr, gateway, p, s.CIDR)
			}
		}
		checkInvariants(t, s)

		// Naming the effective gateway explicitly plans the same subnet.
		again, err := Plan(Spec{CIDR: cidr, Gateway: s.Gateway.String()})
		if err != nil {
			t.Fatalf("Plan(%q, %q) rejects the gateway %s it planned itself: %v", cidr, gateway, s.Gateway, err)
		}
		if again.Gateway != s.Gateway || len(again.AllocationPools) != len(s.AllocationPools) {
			t.Errorf("Plan(%q, %s) = %+v, want %+v", cidr, s.Gateway, again, s)
		}
		for i := range again.AllocationPools {
			if again.AllocationPools[i] != s.AllocationPools[i] {
				t.Errorf("Plan(%q, %s) pools %v, want %v", cidr, s.Gateway, again.AllocationPools, s.AllocationPools)
				break
			}
		}
	})
}

// FuzzPlanAddresses builds the cidr and gateway from raw address bytes and a prefix
// length, so that the fuzzer spends its time on valid subnets of every size and
// position rather than on text that does not parse.
func FuzzPlanAddresses(f *testing.F) {
	f.Add([]byte{10, 0, 0, 0}, uint8(24), []byte{10, 0, 0, 1})
	f.Add([]byte{10, 0, 0, 0}, uint8(30), []byte{10, 0, 0, 3})
	f.Add([]byte{0, 0, 0, 0}, uint8(0), []byte{255, 255, 255, 254})
	f.Add([]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(64), []byte{})
	f.Add([]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(126),
		[]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3})
	f.Fuzz(func(t *testing.T, addr []byte, bits uint8, gw []byte) {
		a, ok := netip.AddrFromSlice(addr)
		if !ok || int(bits) > a.BitLen() {
			return
		}
		prefix := netip.PrefixFrom(a, int(bits)).Masked()
		gateway := ""
		if g, ok := netip.AddrFromSlice(gw); ok {
			gateway = g.String()
		}
		s, err := Plan(Spec{CIDR: prefix.String(), Gateway: gateway})
		tooSmall := bits > uint8(maxPrefixLen(a))
		// Masking can turn a mapped address into a plain IPv6 one (::ffff:a.b.c.d/58 is
		// ::/58): judge the prefix Plan is given.
		if prefix.Addr().Is4In6() {
			if err == nil {
				t.Errorf("Plan(%s, %q) accepted an IPv4-mapped IPv6 cidr", prefix, gateway)
			}
			return
		}
		if tooSmall {
			if err == nil {
				t.Errorf("Plan(%s, %q) accepted a prefix longer than /%d", prefix, gateway, maxPrefixLen(a))
			}
			return
		}
		if gateway == "" && err != nil {
			t.Fatalf("Plan(%s, \"\") refused a valid cidr: %v", prefix, err)
		}
		if err != nil {
			return
		}
		if !s.CIDR.Contains(s.Gateway) || s.Gateway == s.CIDR.Addr() || (s.IPVersion == 4 && s.Gateway == lastAddr(s.CIDR)) {
			t.Errorf("Plan(%s, %q): gateway %s is not a usable address of %s", prefix, gateway, s.Gateway, s.CIDR)
		}
		checkInvariants(t, s)
	})
}

// splitList splits comma-separated text; empty text is no entry.
func splitList(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(text, ",")
}

// splitRoutes splits comma-separated destination>nextHop text.
func splitRoutes(text string) []HostRoute {
	var routes []HostRoute
	for _, r := range splitList(text) {
		dst, hop, _ := strings.Cut(r, ">")
		routes = append(routes, HostRoute{Destination: dst, NextHop: hop})
	}
	return routes
}

// checkOptions checks the DNS servers and routes Plan accepted: as given and in order,
// within Neutron's limits, each once, all of the subnet's family.
func checkOptions(t *testing.T, s Subnet, nameservers []string, routes []HostRoute) {
	t.Helper()
	if len(s.DNSNameservers) != len(nameservers) || len(s.DNSNameservers) > MaxDNSNameservers {
		t.Fatalf("planned %d DNS servers for %q, want them all and at most %d", len(s.DNSNameservers), nameservers, MaxDNSNameservers)
	}
	seen := map[netip.Addr]bool{}
	for i, a := range s.DNSNameservers {
		if a.String() != nameservers[i] || seen[a] || a.Is4() != s.CIDR.Addr().Is4() {
			t.Errorf("DNS server %d planned as %s from %q for %s (repeated: %v)", i, a, nameservers[i], s.CIDR, seen[a])
		}
		seen[a] = true
	}
	if len(s.HostRoutes) != len(routes) || len(s.HostRoutes) > MaxHostRoutes {
		t.Fatalf("planned %d routes for %q, want them all and at most %d", len(s.HostRoutes), routes, MaxHostRoutes)
	}
	destinations := map[netip.Prefix]bool{}
	for i, r := range s.HostRoutes {
		if r.Destination.String() != routes[i].Destination || r.NextHop.String() != routes[i].NextHop {
			t.Errorf("route %d planned as %s via %s from %+v", i, r.Destination, r.NextHop, routes[i])
		}
		if r.Destination != r.Destination.Masked() || destinations[r.Destination] {
			t.Errorf("route %d: destination %s has host bits set or is repeated", i, r.Destination)
		}
		if r.Destination.Addr().Is4() != s.CIDR.Addr().Is4() || r.NextHop.Is4() != s.CIDR.Addr().Is4() {
			t.Errorf("route %d %s via %s is of another family than %s", i, r.Destination, r.NextHop, s.CIDR)
		}
		destinations[r.Destination] = true
	}
}

// FuzzPlanPools feeds Plan arbitrary cidr, gateway mode, gateway and explicit pools
// (comma-separated start-end). Whatever it accepts must be pools Neutron takes: the ones
// given, inside the CIDR, start <= end, holding neither the network address, the IPv4
// broadcast address nor the gateway, no two sharing an address (checkPools); and without
// gateway in mode None.
func FuzzPlanPools(f *testing.F) {
	for _, seed := range [][4]string{
		{"10.0.0.0/24", "", "", "10.0.0.100-10.0.0.199,10.0.0.10-10.0.0.19"},
		{"10.0.0.0/24", "", "", "10.0.0.1-10.0.0.100"},
		{"10.0.0.0/24", "", "10.0.0.50", "10.0.0.10-10.0.0.100"},
		{"10.0.0.0/24", "None", "", "10.0.0.1-10.0.0.254"},
		{"10.0.0.0/24", "None", "10.0.0.1", ""},
		{"10.0.0.0/24", "Automatic", "", "10.0.0.0-10.0.0.9"},
		{"10.0.0.0/24", "", "", "10.0.0.250-10.0.0.255"},
		{"10.0.0.0/24", "", "", "10.0.0.20-10.0.0.10"},
		{"10.0.0.0/24", "", "", "10.0.0.10-10.0.0.20,10.0.0.20-10.0.0.30"},
		{"10.0.0.0/24", "", "", "10.0.0.10-2001:db8::1"},
		{"2001:db8::/64", "", "", "2001:db8::1:0-2001:db8::ffff:ffff:ffff:ffff"},
		{"2001:db8::/64", "None", "", "2001:db8::-2001:db8::9"},
		{"2001:db8::/64", "", "2001:db8::a", "2001:db8::2-2001:db8::ff,2001:db8::f0-2001:db8::1:0"},
		{"0.0.0.0/0", "", "255.255.255.254", "0.0.0.2-255.255.255.253"},
		{"::/0", "None", "", "::1-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, cidr, mode, gateway, pools string) {
		var given []PoolRange
		for _, p := range splitList(pools) {
			start, end, _ := strings.Cut(p, "-")
			given = append(given, PoolRange{start, end})
		}
		s, err := Plan(Spec{CIDR: cidr, GatewayMode: mode, Gateway: gateway, AllocationPools: given})
		if err != nil {
			if err.Error() == "" {
				t.Errorf("Plan(%q, %q, %q, %q): empty error message", cidr, mode, gateway, pools)
			}
			return
		}
		if (mode == GatewayNone) == s.Gateway.IsValid() {
			t.Errorf("Plan(%q, %q, %q, %q): gateway %s in mode %q", cidr, mode, gateway, pools, s.Gateway, mode)
		}
		checkPools(t, s, given)
	})
}
