package fake

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Subnet pools: what a project may allocate from, and the allocation itself.

// PutSubnetPool stores p as if the cloud's admin or a project had created it. A project's
// Driver (CreateIn) sees and allocates from its own pools and shared ones.
func (d *Driver) PutSubnetPool(p neutron.SubnetPool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pools[p.ID] = p
}

// subnetVersion returns the IP version of s, from its CIDR when it has none.
func subnetVersion(s neutron.Subnet) int {
	if s.IPVersion != 0 {
		return s.IPVersion
	}
	return versionOf(s.CIDR)
}

// versionOf returns the IP version of a CIDR, 0 when it is none.
func versionOf(cidr string) int {
	p, err := netip.ParsePrefix(cidr)
	switch {
	case err != nil:
		return 0
	case p.Addr().Is4():
		return 4
	}
	return 6
}

// visible reports whether this Driver's project may use pool: its own or a shared one;
// every pool when the Driver has no project (an admin). Callers hold d.mu.
func (d *Driver) visible(pool neutron.SubnetPool) bool {
	return d.project == "" || pool.Shared || pool.ProjectID == d.project
}

// allocate returns the prefix of req.PrefixLength the subnet gets from pool, or the
// errors Neutron 21 answers: 400 for a request the pool can never satisfy, 500
// SubnetAllocationError when the pool has no room left (the neutronclient makes it a
// conflict). A request naming both a pool and a CIDR gets that CIDR if it is free.
// Callers hold d.mu.
func (d *Driver) allocate(pool neutron.SubnetPool, req neutron.SubnetRequest) (string, error) {
	rejected := func(typ, msg string) error {
		return &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Type: typ, Message: msg}
	}
	full := func(msg string) error {
		return &neutron.Error{Op: "create subnet", Kind: neutron.KindConflict, Code: 500, Type: "SubnetAllocationError",
			Message: "Failed to allocate subnet: " + msg + "."}
	}
	if req.IPVersion == 0 {
		// Neutron wants ip_version with a pool too.
		return "", rejected("HTTPBadRequest", "Invalid input for ip_version. Reason: 0 is not in valid_values.")
	}
	if req.IPVersion != pool.IPVersion {
		return "", rejected("BadRequest", fmt.Sprintf("Bad subnets request: Cannot allocate IPv%d subnet from IPv%d subnet pool.", req.IPVersion, pool.IPVersion))
	}
	prefixes := make([]netip.Prefix, 0, len(pool.Prefixes))
	for _, p := range pool.Prefixes {
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			panic(fmt.Sprintf("fake Neutron: subnet pool %s has prefix %q: %v", pool.ID, p, err))
		}
		prefixes = append(prefixes, prefix.Masked())
	}
	var taken []netip.Prefix
	for _, s := range d.subnets {
		if s.SubnetPoolID == pool.ID {
			if p, err := netip.ParsePrefix(s.CIDR); err == nil {
				taken = append(taken, p)
			}
		}
	}
	if req.CIDR != "" {
		want, err := netip.ParsePrefix(req.CIDR)
		if err != nil {
			return "", rejected("HTTPBadRequest", "Invalid input for cidr. Reason: '"+req.CIDR+"' is not a valid IP subnet.")
		}
		inside := slices.ContainsFunc(prefixes, func(p netip.Prefix) bool { return p.Bits() <= want.Bits() && p.Contains(want.Addr()) })
		if !inside || slices.ContainsFunc(taken, want.Overlaps) {
			return "", full("Cannot allocate requested subnet from the available set of prefixes")
		}
		return want.Masked().String(), nil
	}
	if req.PrefixLength == 0 {
		// Neutron takes the pool's default_prefixlen, which neutron.SubnetPool leaves out.
		return "", rejected("BadRequest", "fake Neutron: a subnet from a pool needs prefixlen")
	}
	unspecified := netip.IPv4Unspecified()
	if pool.IPVersion == 6 {
		unspecified = netip.IPv6Unspecified()
	}
	if req.PrefixLength > unspecified.BitLen() {
		return "", rejected("AddrFormatError", fmt.Sprintf("invalid IPNetwork %s/%d", unspecified, req.PrefixLength))
	}
	if p, ok := firstFree(prefixes, req.PrefixLength, taken); ok {
		return p.String(), nil
	}
	return "", full(fmt.Sprintf("Insufficient prefix space to allocate subnet size /%d", req.PrefixLength))
}

func (d *Driver) ListSubnetPools(_ context.Context, f neutron.Filter) ([]neutron.SubnetPool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list subnet pools"); err != nil {
		return nil, err
	}
	// No project filter: the pools a project allocates from are mostly shared by another.
	var out []neutron.SubnetPool
	for _, p := range d.pools {
		if d.visible(p) && (len(f.IDs) == 0 || slices.Contains(f.IDs, p.ID)) && (f.Name == "" || f.Name == p.Name) {
			out = append(out, p)
		}
	}
	return out, nil
}

// firstFree returns the first prefix of length bits, in the order of pool, that overlaps
// none of taken.
func firstFree(pool []netip.Prefix, bits int, taken []netip.Prefix) (netip.Prefix, bool) {
	for _, p := range pool {
		if bits < p.Bits() {
			continue
		}
		for at := p.Addr(); at.IsValid() && p.Contains(at); {
			candidate := netip.PrefixFrom(at, bits)
			i := slices.IndexFunc(taken, candidate.Overlaps)
			if i < 0 {
				return candidate, true
			}
			// Past the prefix in the way, to the next boundary of the length asked for.
			at = alignUp(lastAddr(taken[i]).Next(), bits)
		}
	}
	return netip.Prefix{}, false
}

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// alignUp returns the first address from a on that starts a prefix of length bits; the
// zero Addr past the end of the address space.
func alignUp(a netip.Addr, bits int) netip.Addr {
	if !a.IsValid() {
		return a
	}
	start := netip.PrefixFrom(a, bits).Masked()
	if start.Addr() == a {
		return a
	}
	return lastAddr(start).Next()
}
