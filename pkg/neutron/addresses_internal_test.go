package neutron

import (
	"math"
	"net/netip"
	"testing"
)

// Pools are sized with big integers, so an IPv6 pool saturates rather than wraps, and
// only addresses inside a pool count as used.
func TestCountAddresses(t *testing.T) {
	addrs := func(texts ...string) []netip.Addr {
		out := make([]netip.Addr, len(texts))
		for i, s := range texts {
			out[i] = netip.MustParseAddr(s)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		pools []Pool
		held  []netip.Addr
		want  Addresses
	}{
		{"a /24 without the gateway", []Pool{{"10.0.0.2", "10.0.0.254"}}, addrs("10.0.0.2", "10.0.0.200"), Addresses{253, 2}},
		{"the gateway's port is outside the pools", []Pool{{"10.0.0.2", "10.0.0.254"}}, addrs("10.0.0.1", "10.0.0.5"), Addresses{253, 1}},
		{"two pools", []Pool{{"10.0.0.10", "10.0.0.19"}, {"10.0.0.100", "10.0.0.199"}}, addrs("10.0.0.15", "10.0.0.150", "10.0.0.50"), Addresses{110, 2}},
		{"an IPv6 /64 saturates", []Pool{{"2001:db8::2", "2001:db8::ffff:ffff:ffff:ffff"}}, addrs("2001:db8::5"), Addresses{math.MaxInt64, 1}},
		{"an IPv6 /120", []Pool{{"2001:db8::2", "2001:db8::ff"}}, addrs("2001:db8::5", "10.0.0.5"), Addresses{254, 1}},
		{"no pools: nothing to hand out", nil, addrs("10.0.0.5"), Addresses{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AddressesIn(tc.pools, tc.held)
			if got != tc.want {
				t.Errorf("AddressesIn = %+v, want %+v", got, tc.want)
			}
			if got.Free() != tc.want.Total-tc.want.Used {
				t.Errorf("Free() = %d, want %d", got.Free(), tc.want.Total-tc.want.Used)
			}
		})
	}
}
