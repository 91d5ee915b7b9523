package neutron

import (
	"math"
	"math/big"
	"net/netip"
)

// Addresses is how many addresses of a subnet's allocation pools there are, and how many
// of them ports hold. Total saturates at math.MaxInt64 (an IPv6 /64 has 2^64).
type Addresses struct {
	Total int64
	Used  int64
}

// Free returns the addresses of the pools no port holds.
func (a Addresses) Free() int64 { return max(a.Total-a.Used, 0) }

// AddressesIn sizes the pools and counts the addresses of held inside them: an address
// outside (a router's gateway port, say) takes nothing from what the pools can hand out.
func AddressesIn(pools []Pool, held []netip.Addr) Addresses {
	total := new(big.Int)
	ranges := make([][2]netip.Addr, 0, len(pools))
	for _, p := range pools {
		start, err1 := netip.ParseAddr(p.Start)
		end, err2 := netip.ParseAddr(p.End)
		if err1 != nil || err2 != nil || start.BitLen() != end.BitLen() || end.Less(start) {
			continue
		}
		size := new(big.Int).Sub(new(big.Int).SetBytes(end.AsSlice()), new(big.Int).SetBytes(start.AsSlice()))
		total.Add(total, size.Add(size, big.NewInt(1)))
		ranges = append(ranges, [2]netip.Addr{start, end})
	}
	var a Addresses
	if total.IsInt64() {
		a.Total = total.Int64()
	} else {
		a.Total = math.MaxInt64
	}
	for _, ip := range held {
		for _, r := range ranges {
			if ip.BitLen() == r[0].BitLen() && !ip.Less(r[0]) && !r[1].Less(ip) {
				a.Used++
				break
			}
		}
	}
	return a
}
