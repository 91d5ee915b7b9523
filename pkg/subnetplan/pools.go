package subnetplan

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
)

// MaxAllocationPools bounds allocationPools. Neutron has no limit of its own; the CRD
// needs one to bound the cost of its rules, and real subnets have one to three.
const MaxAllocationPools = 16

// defaultPools returns every usable address of prefix except gateway, in ascending order:
// one pool, or two around a gateway in the middle. Without gateway (mode None) it is the
// whole usable range.
func defaultPools(prefix netip.Prefix, gateway netip.Addr) []Pool {
	first, last := usableRange(prefix)
	if !gateway.IsValid() {
		return []Pool{{Start: first, End: last}}
	}
	var pools []Pool
	if gateway != first {
		pools = append(pools, Pool{Start: first, End: gateway.Prev()})
	}
	if gateway != last {
		pools = append(pools, Pool{Start: gateway.Next(), End: last})
	}
	return pools
}

// parsePools checks explicit pools: canonical addresses of the family of prefix, inside
// its usable range, start <= end, not holding gateway (when valid; defaulted says it was
// not given), and not overlapping one another. The order is kept.
func parsePools(prefix netip.Prefix, gateway netip.Addr, defaulted bool, given []PoolRange) ([]Pool, error) {
	if len(given) > MaxAllocationPools {
		return nil, fmt.Errorf("allocationPools lists %d pools: at most %d are allowed", len(given), MaxAllocationPools)
	}
	pools := make([]Pool, 0, len(given))
	for i, r := range given {
		p, err := parsePool(prefix, i, r)
		if err != nil {
			return nil, err
		}
		if gateway.IsValid() && p.contains(gateway) {
			why := ""
			if defaulted {
				why = " (the first usable address, as gateway is not set)"
			}
			return nil, fmt.Errorf("allocationPools[%d] %s contains the gateway %s%s: leave the gateway out of every pool",
				i, p, gateway, why)
		}
		pools = append(pools, p)
	}
	return pools, checkNoOverlap(pools)
}

// parsePool checks one pool on its own.
func parsePool(prefix netip.Prefix, i int, r PoolRange) (Pool, error) {
	field := fmt.Sprintf("allocationPools[%d]", i)
	start, err := parseAddr(field+".start", r.Start)
	if err != nil {
		return Pool{}, err
	}
	end, err := parseAddr(field+".end", r.End)
	if err != nil {
		return Pool{}, err
	}
	version := family(prefix.Addr())
	first, last := usableRange(prefix)
	for _, a := range []struct {
		name string
		addr netip.Addr
	}{{"start", start}, {"end", end}} {
		if f := family(a.addr); f != version {
			return Pool{}, fmt.Errorf("%s.%s %s is IPv%d but cidr %s is IPv%d: a pool must be of the subnet's family",
				field, a.name, a.addr, f, prefix, version)
		}
		if !prefix.Contains(a.addr) {
			return Pool{}, fmt.Errorf("%s.%s %s is not inside cidr %s: use addresses from %s to %s",
				field, a.name, a.addr, prefix, first, last)
		}
	}
	p := Pool{Start: start, End: end}
	if end.Less(start) {
		return Pool{}, fmt.Errorf("%s %s is reversed: start %s comes after end %s", field, p, start, end)
	}
	if start == prefix.Addr() {
		return Pool{}, fmt.Errorf("%s %s contains the %s %s of cidr %s: start at %s or later",
			field, p, networkAddressName(version), start, prefix, first)
	}
	if version == 4 && end == lastAddr(prefix) {
		return Pool{}, fmt.Errorf("%s %s contains the broadcast address %s of cidr %s: end at %s or earlier",
			field, p, end, prefix, last)
	}
	return p, nil
}

// checkNoOverlap refuses pools that share an address, naming the first pair in the order
// given.
func checkNoOverlap(pools []Pool) error {
	order := make([]int, len(pools))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Or(pools[i].Start.Compare(pools[j].Start), i-j) })
	for k := 1; k < len(order); k++ {
		i, j := order[k-1], order[k]
		if !pools[i].End.Less(pools[j].Start) {
			i, j = min(i, j), max(i, j)
			return fmt.Errorf("allocationPools[%d] %s overlaps allocationPools[%d] %s: pools must not share an address",
				j, pools[j], i, pools[i])
		}
	}
	return nil
}

func (p Pool) contains(a netip.Addr) bool {
	return !a.Less(p.Start) && !p.End.Less(a)
}
