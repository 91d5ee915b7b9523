package neutron

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"net/netip"
	"sync"
)

// Neutron's IP-availability API is admin-only, so a project learns how full its subnets
// are by counting its ports itself: one list of the project's ports per count, answered
// from memory between counts.

// maxFilteredNetworks is how many networks a ports list names in its query; with more it
// lists the whole project's ports rather than send a URL of tens of kilobytes.
const maxFilteredNetworks = 100

// Addresses is how many addresses of a subnet's allocation pools there are, and how many
// of them ports hold. Total saturates at math.MaxInt64 (an IPv6 /64 has 2^64).
type Addresses struct {
	Total int64
	Used  int64
}

// Free returns the addresses of the pools no port holds.
func (a Addresses) Free() int64 { return max(a.Total-a.Used, 0) }

// addressBook is what the last count found, by subnet ID.
type addressBook struct {
	mu   sync.Mutex
	used map[string]Addresses
}

// CountAddresses lists the ports on the networks with one call, and records for each of
// their subnets the store holds how many addresses of its allocation pools ports hold.
// What the last count found for other networks is dropped.
func (s *Store) CountAddresses(ctx context.Context, networkIDs []string) error {
	if len(networkIDs) == 0 {
		s.addresses.replace(nil)
		return nil
	}
	filter := Filter{ProjectID: s.projectID}
	if len(networkIDs) <= maxFilteredNetworks {
		filter.NetworkIDs = networkIDs
	}
	ports, err := s.driver.ListPorts(ctx, filter)
	if err != nil {
		return fmt.Errorf("listing the ports of project %s to count addresses: %w", s.projectID, err)
	}
	held := map[string][]netip.Addr{} // by subnet ID
	for _, p := range ports {
		for _, ip := range p.FixedIPs {
			if a, err := netip.ParseAddr(ip.IPAddress); err == nil {
				held[ip.SubnetID] = append(held[ip.SubnetID], a)
			}
		}
	}
	counted := map[string]Addresses{}
	for _, id := range networkIDs {
		subnets, _ := s.index.Subnets(id)
		for _, sub := range subnets {
			counted[sub.ID] = countAddresses(sub.AllocationPools, held[sub.ID])
		}
	}
	s.addresses.replace(counted)
	return nil
}

// AddressesOf returns what the last count found for the subnet.
func (s *Store) AddressesOf(subnetID string) (Addresses, bool) {
	s.addresses.mu.Lock()
	defer s.addresses.mu.Unlock()
	a, ok := s.addresses.used[subnetID]
	return a, ok
}

func (b *addressBook) replace(used map[string]Addresses) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used = used
}

// countAddresses sizes the pools and counts the addresses inside them: an address outside
// (a router's gateway port, say) takes nothing from what the pools can hand out.
func countAddresses(pools []Pool, held []netip.Addr) Addresses {
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
