package neutronstore

import (
	"context"
	"fmt"
	"net/netip"
	"sync"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Neutron's IP-availability API is admin-only, so a project learns how full its subnets
// are by counting its ports itself: one list of the project's ports per count, answered
// from memory between counts.

// maxFilteredNetworks is how many networks a ports list names in its query; with more it
// lists the whole project's ports rather than send a URL of tens of kilobytes.
const maxFilteredNetworks = 100

// addressBook is what the last count found, by subnet ID.
type addressBook struct {
	mu   sync.Mutex
	used map[string]neutron.Addresses
}

// CountAddresses lists the ports on the networks with one call, and records for each of
// their subnets the store holds how many addresses of its allocation pools ports hold.
// What the last count found for other networks is dropped.
func (s *Store) CountAddresses(ctx context.Context, networkIDs []string) error {
	if len(networkIDs) == 0 {
		s.addresses.replace(nil)
		return nil
	}
	filter := neutron.Filter{ProjectID: s.projectID}
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
	counted := map[string]neutron.Addresses{}
	for _, id := range networkIDs {
		subnets, _ := s.index.Subnets(id)
		for _, sub := range subnets {
			counted[sub.ID] = neutron.AddressesIn(sub.AllocationPools, held[sub.ID])
		}
	}
	s.addresses.replace(counted)
	return nil
}

// AddressesOf returns what the last count found for the subnet.
func (s *Store) AddressesOf(subnetID string) (neutron.Addresses, bool) {
	s.addresses.mu.Lock()
	defer s.addresses.mu.Unlock()
	a, ok := s.addresses.used[subnetID]
	return a, ok
}

func (b *addressBook) replace(used map[string]neutron.Addresses) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used = used
}
