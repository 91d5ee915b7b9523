package subnetplan

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func TestPlanPoolsValid(t *testing.T) {
	tests := []struct {
		name        string
		spec        Spec
		wantGateway string
		wantPools   []string
	}{
		{"static range and dhcp range", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.100", "10.0.0.199"}, {"10.0.0.10", "10.0.0.19"}}},
			"10.0.0.1", []string{"10.0.0.100-10.0.0.199", "10.0.0.10-10.0.0.19"}},
		{"pool of one address next to the gateway", Spec{CIDR: "10.0.0.0/24", Gateway: "10.0.0.9", AllocationPools: []PoolRange{{"10.0.0.10", "10.0.0.10"}, {"10.0.0.1", "10.0.0.8"}}},
			"10.0.0.9", []string{"10.0.0.10-10.0.0.10", "10.0.0.1-10.0.0.8"}},
		{"adjacent pools", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.2", "10.0.0.9"}, {"10.0.0.10", "10.0.0.254"}}},
			"10.0.0.1", []string{"10.0.0.2-10.0.0.9", "10.0.0.10-10.0.0.254"}},
		{"no gateway, every usable address", Spec{CIDR: "10.0.0.0/24", GatewayMode: GatewayNone},
			"invalid IP", []string{"10.0.0.1-10.0.0.254"}},
		{"no gateway, pool from the first usable address", Spec{CIDR: "10.0.0.0/24", GatewayMode: GatewayNone, AllocationPools: []PoolRange{{"10.0.0.1", "10.0.0.254"}}},
			"invalid IP", []string{"10.0.0.1-10.0.0.254"}},
		{"automatic named", Spec{CIDR: "10.0.0.0/24", GatewayMode: GatewayAutomatic},
			"10.0.0.1", []string{"10.0.0.2-10.0.0.254"}},
		{"ipv6 pool up to the last address", Spec{CIDR: "2001:db8::/64", AllocationPools: []PoolRange{{"2001:db8::1:0", "2001:db8::ffff:ffff:ffff:ffff"}}},
			"2001:db8::1", []string{"2001:db8::1:0-2001:db8::ffff:ffff:ffff:ffff"}},
		{"ipv6 no gateway", Spec{CIDR: "2001:db8::/64", GatewayMode: GatewayNone},
			"invalid IP", []string{"2001:db8::1-2001:db8::ffff:ffff:ffff:ffff"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plan(tt.spec)
			if err != nil {
				t.Fatalf("Plan(%+v): %v", tt.spec, err)
			}
			if got.Gateway.String() != tt.wantGateway {
				t.Errorf("Gateway = %s, want %s", got.Gateway, tt.wantGateway)
			}
			var pools []string
			for _, p := range got.AllocationPools {
				pools = append(pools, p.String())
			}
			if !slices.Equal(pools, tt.wantPools) {
				t.Errorf("AllocationPools = %v, want %v", pools, tt.wantPools)
			}
			checkPools(t, got, tt.spec.AllocationPools)
		})
	}
}

func TestPlanPoolsInvalid(t *testing.T) {
	many := make([]PoolRange, MaxAllocationPools+1)
	for i := range many {
		many[i] = PoolRange{fmt.Sprintf("10.0.0.%d", 10+i), fmt.Sprintf("10.0.0.%d", 10+i)}
	}
	tests := []struct {
		name    string
		spec    Spec
		wantErr string
	}{
		{"too many", Spec{CIDR: "10.0.0.0/24", AllocationPools: many}, "allocationPools lists 17 pools: at most 16 are allowed"},
		{"garbage start", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"x", "10.0.0.9"}}}, `allocationPools[0].start "x" is not a valid IPv4 or IPv6 address`},
		{"upper case end", Spec{CIDR: "2001:db8::/64", AllocationPools: []PoolRange{{"2001:db8::2", "2001:DB8::9"}}}, `allocationPools[0].end "2001:DB8::9" is not in canonical form`},
		{"other family", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.2", "10.0.0.9"}, {"2001:db8::2", "2001:db8::9"}}},
			"allocationPools[1].start 2001:db8::2 is IPv6 but cidr 10.0.0.0/24 is IPv4: a pool must be of the subnet's family"},
		{"end outside", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.2", "10.0.1.9"}}},
			"allocationPools[0].end 10.0.1.9 is not inside cidr 10.0.0.0/24: use addresses from 10.0.0.1 to 10.0.0.254"},
		{"ipv6 start outside", Spec{CIDR: "2001:db8::/64", AllocationPools: []PoolRange{{"2001:db7::2", "2001:db8::9"}}},
			"allocationPools[0].start 2001:db7::2 is not inside cidr 2001:db8::/64: use addresses from 2001:db8::1 to 2001:db8::ffff:ffff:ffff:ffff"},
		{"reversed", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.20", "10.0.0.10"}}},
			"allocationPools[0] 10.0.0.20-10.0.0.10 is reversed: start 10.0.0.20 comes after end 10.0.0.10"},
		{"ipv6 reversed", Spec{CIDR: "2001:db8::/64", AllocationPools: []PoolRange{{"2001:db8::1:0", "2001:db8::ffff"}}},
			"allocationPools[0] 2001:db8::1:0-2001:db8::ffff is reversed"},
		{"network address", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.0", "10.0.0.10"}}},
			"allocationPools[0] 10.0.0.0-10.0.0.10 contains the network address 10.0.0.0 of cidr 10.0.0.0/24: start at 10.0.0.1 or later"},
		{"ipv6 network address", Spec{CIDR: "2001:db8::/64", GatewayMode: GatewayNone, AllocationPools: []PoolRange{{"2001:db8::", "2001:db8::10"}}},
			"allocationPools[0] 2001:db8::-2001:db8::10 contains the network (subnet-router anycast) address 2001:db8:: of cidr 2001:db8::/64"},
		{"broadcast address", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.10", "10.0.0.255"}}},
			"allocationPools[0] 10.0.0.10-10.0.0.255 contains the broadcast address 10.0.0.255 of cidr 10.0.0.0/24: end at 10.0.0.254 or earlier"},
		{"given gateway", Spec{CIDR: "10.0.0.0/24", Gateway: "10.0.0.50", AllocationPools: []PoolRange{{"10.0.0.2", "10.0.0.9"}, {"10.0.0.10", "10.0.0.100"}}},
			"allocationPools[1] 10.0.0.10-10.0.0.100 contains the gateway 10.0.0.50: leave the gateway out of every pool"},
		{"default gateway", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.1", "10.0.0.100"}}},
			"allocationPools[0] 10.0.0.1-10.0.0.100 contains the gateway 10.0.0.1 (the first usable address, as gateway is not set): leave the gateway out of every pool"},
		{"ipv6 gateway", Spec{CIDR: "2001:db8::/64", Gateway: "2001:db8::a", AllocationPools: []PoolRange{{"2001:db8::2", "2001:db8::ff"}}},
			"allocationPools[0] 2001:db8::2-2001:db8::ff contains the gateway 2001:db8::a"},
		{"overlap", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.100", "10.0.0.200"}, {"10.0.0.10", "10.0.0.20"}, {"10.0.0.150", "10.0.0.160"}}},
			"allocationPools[2] 10.0.0.150-10.0.0.160 overlaps allocationPools[0] 10.0.0.100-10.0.0.200: pools must not share an address"},
		{"overlap by one address", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.20", "10.0.0.30"}, {"10.0.0.10", "10.0.0.20"}}},
			"allocationPools[1] 10.0.0.10-10.0.0.20 overlaps allocationPools[0] 10.0.0.20-10.0.0.30"},
		{"same pool twice", Spec{CIDR: "10.0.0.0/24", AllocationPools: []PoolRange{{"10.0.0.10", "10.0.0.20"}, {"10.0.0.10", "10.0.0.20"}}},
			"allocationPools[1] 10.0.0.10-10.0.0.20 overlaps allocationPools[0] 10.0.0.10-10.0.0.20"},
		{"ipv6 overlap", Spec{CIDR: "2001:db8::/64", AllocationPools: []PoolRange{{"2001:db8::2", "2001:db8::ff"}, {"2001:db8::f0", "2001:db8::1:0"}}},
			"allocationPools[1] 2001:db8::f0-2001:db8::1:0 overlaps allocationPools[0] 2001:db8::2-2001:db8::ff"},
		{"gateway with mode None", Spec{CIDR: "10.0.0.0/24", GatewayMode: GatewayNone, Gateway: "10.0.0.1"},
			"gateway 10.0.0.1 is set but gatewayMode is None (a subnet without gateway): remove gateway or set gatewayMode to Automatic"},
		{"unknown mode", Spec{CIDR: "10.0.0.0/24", GatewayMode: "Manual"}, `gatewayMode "Manual" is neither Automatic nor None`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plan(tt.spec)
			if err == nil {
				t.Fatalf("Plan(%+v) = %+v, want an error containing %q", tt.spec, got, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %q, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// TestPlanEveryPoolPair tries every pair of pools (and every single pool) in small
// prefixes of both families, with each gateway choice, and checks the verdict against a
// brute-force count of the addresses each pool holds.
func TestPlanEveryPoolPair(t *testing.T) {
	for _, cidr := range []string{"10.0.0.8/29", "2001:db8::10/125"} {
		prefix := netip.MustParsePrefix(cidr)
		var all []netip.Addr
		for a := prefix.Addr(); prefix.Contains(a); a = a.Next() {
			all = append(all, a)
		}
		usable := map[netip.Addr]bool{}
		for _, a := range all[1:] {
			usable[a] = true
		}
		if prefix.Addr().Is4() {
			delete(usable, all[len(all)-1])
		}
		var ranges []PoolRange
		for _, s := range all {
			for _, e := range all {
				ranges = append(ranges, PoolRange{s.String(), e.String()})
			}
		}
		type gatewayChoice struct{ mode, gateway string }
		choices := []gatewayChoice{{GatewayNone, ""}, {"", ""}, {"", all[3].String()}, {"", all[len(all)-2].String()}}
		for _, g := range choices {
			for i, a := range ranges {
				for _, b := range append([]PoolRange{{}}, ranges[i:]...) {
					given := []PoolRange{a}
					if b.Start != "" {
						given = append(given, b)
					}
					spec := Spec{CIDR: cidr, GatewayMode: g.mode, Gateway: g.gateway, AllocationPools: given}
					gw := netip.Addr{}
					if g.mode != GatewayNone {
						gw = all[1]
						if g.gateway != "" {
							gw = netip.MustParseAddr(g.gateway)
						}
					}
					want := acceptablePools(given, usable, gw)
					got, err := Plan(spec)
					if want != (err == nil) {
						t.Fatalf("Plan(%s, gateway %q mode %q, pools %v): error %v, want accepted=%v", cidr, g.gateway, g.mode, given, err, want)
					}
					if err == nil {
						checkPools(t, got, given)
					}
				}
			}
		}
	}
}

// acceptablePools is the rule by enumeration: every address of every pool usable and not
// the gateway, start <= end, no address in two pools.
func acceptablePools(given []PoolRange, usable map[netip.Addr]bool, gateway netip.Addr) bool {
	seen := map[netip.Addr]bool{}
	for _, r := range given {
		start, end := netip.MustParseAddr(r.Start), netip.MustParseAddr(r.End)
		if end.Less(start) {
			return false
		}
		for a := start; ; a = a.Next() {
			if !usable[a] || a == gateway || seen[a] {
				return false
			}
			seen[a] = true
			if a == end {
				break
			}
		}
	}
	return true
}

// checkPools checks pools Plan accepted: the ones given, in the order given, inside the
// CIDR, start <= end, no network, broadcast or gateway address, no two sharing an address.
func checkPools(t *testing.T, s Subnet, given []PoolRange) {
	t.Helper()
	if len(given) == 0 {
		if s.Gateway.IsValid() {
			checkInvariants(t, s)
		} else if first, last := usableRange(s.CIDR); len(s.AllocationPools) != 1 || s.AllocationPools[0] != (Pool{first, last}) {
			t.Errorf("pools without gateway = %v, want the usable range %s-%s", s.AllocationPools, first, last)
		}
		return
	}
	if len(s.AllocationPools) != len(given) {
		t.Fatalf("planned %d pools from %d", len(s.AllocationPools), len(given))
	}
	network, last := s.CIDR.Addr(), lastAddr(s.CIDR)
	for i, p := range s.AllocationPools {
		if p.Start.String() != given[i].Start || p.End.String() != given[i].End {
			t.Errorf("pool %d planned as %s from %+v", i, p, given[i])
		}
		if !s.CIDR.Contains(p.Start) || !s.CIDR.Contains(p.End) || p.End.Less(p.Start) {
			t.Errorf("pool %d %s is outside %s or reversed", i, p, s.CIDR)
		}
		if p.contains(network) || (s.IPVersion == 4 && p.contains(last)) || (s.Gateway.IsValid() && p.contains(s.Gateway)) {
			t.Errorf("pool %d %s holds the network, broadcast or gateway (%s) address of %s", i, p, s.Gateway, s.CIDR)
		}
		for j, q := range s.AllocationPools[:i] {
			if p.contains(q.Start) || q.contains(p.Start) {
				t.Errorf("pools %d %s and %d %s overlap", j, q, i, p)
			}
		}
	}
}
