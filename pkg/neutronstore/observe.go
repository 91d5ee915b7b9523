package neutronstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// What Neutron holds for one owner, as the reconcile (Observe) and the Neutron resync
// (Cached) see it. Both put it together in observed, from the owner's networks and the
// kept network's subnets, which Observe may have to list and Cached takes from memory.

// Recorded is what a Network's status names in Neutron: of several networks or subnets of
// one owner, those are the ones to keep.
type Recorded struct {
	NetworkID string
	// Subnets are the subnet IDs by spec item ("" for the one-subnet form).
	Subnets map[string]string
	// RouterID is the router the network's subnets are attached to.
	RouterID string
}

// Observe returns what Neutron holds for the owner. It lists the owner's networks by
// name only when the store cannot prove that it knows them all, and the kept network's
// subnets only when it does not know them; a kept network without the owner's tags is
// tagged, which finishes the create that was cut off before them.
func (s *Store) Observe(ctx context.Context, owner neutron.Owner, rec Recorded) (neutron.Observed, error) {
	nets, err := s.ownerNetworks(ctx, owner)
	if err != nil || len(nets) == 0 {
		return neutron.Observed{}, err
	}
	kept, others := keepOne(nets, rec.NetworkID)
	adopted := !owner.HasTags(kept.Tags)
	if adopted {
		tagged, err := s.tag(ctx, owner, *kept, neutron.MarksOf(*kept))
		if err != nil {
			return neutron.Observed{}, err
		}
		kept = &tagged
	}
	subnets, err := s.networkSubnets(ctx, owner, kept.ID, rec.NetworkID == kept.ID && len(rec.Subnets) > 0)
	if err != nil {
		return neutron.Observed{}, err
	}
	return s.observed(owner, rec, kept, others, subnets, adopted), nil
}

// Cached returns what the store knows Neutron holds for the owner, asking no one.
func (s *Store) Cached(owner neutron.Owner, rec Recorded) neutron.Observed {
	nets := s.index.Networks(owner.UID)
	if len(nets) == 0 {
		return neutron.Observed{}
	}
	kept, others := keepOne(nets, rec.NetworkID)
	subnets, _ := s.index.Subnets(kept.ID)
	return s.observed(owner, rec, kept, others, subnets, false)
}

// observed is the one place an Observed is put together: network is the owner's network
// to keep and others its other networks, subnets are network's subnets (split by item
// here), and the store adds what it remembers of network's policies and routers. adopted
// says that network was tagged on the way.
func (s *Store) observed(owner neutron.Owner, rec Recorded, network *neutron.Network, others []neutron.Network, subnets []neutron.Subnet, adopted bool) neutron.Observed {
	o := neutron.Observed{Network: network, DuplicateNetworks: others, Adopted: adopted}
	o.Subnets, o.DuplicateSubnets = byItem(owner, subnets, rec)
	o.Shares, o.SharesKnown = s.shares.of(network.ID)
	o.Routers.Owned, o.Routers.Interfaces, o.Routers.Known = s.routers.view(s.clusterID, owner.UID, network.ID)
	o.Routers.Recorded = rec.RouterID
	return o
}

// ownerNetworks returns the owner's networks, oldest first: from memory when it has them or
// knows there are none, else listed by the owner's name (one call) and remembered.
func (s *Store) ownerNetworks(ctx context.Context, owner neutron.Owner) ([]neutron.Network, error) {
	if nets := s.index.Networks(owner.UID); len(nets) > 0 || s.index.Absent(owner.UID) {
		return nets, nil
	}
	found, err := OwnedNetworks(ctx, s.driver, owner, s.projectID)
	if err != nil {
		return nil, err
	}
	for _, n := range found {
		s.index.PutNetwork(owner.UID, n, false)
	}
	if len(found) == 0 {
		s.index.SetAbsent(owner.UID)
	}
	return s.index.Networks(owner.UID), nil
}

// networkSubnets returns the cluster's subnets on networkID, from memory when it knows them
// all, else listed (one call) and remembered. An empty list does not count as known while
// status names subnets on this network: they were deleted in Neutron since the last fill,
// or the store missed them, and a blind create could collide with them.
func (s *Store) networkSubnets(ctx context.Context, owner neutron.Owner, networkID string, recorded bool) ([]neutron.Subnet, error) {
	if subnets, known := s.index.Subnets(networkID); known && (len(subnets) > 0 || !recorded) {
		return subnets, nil
	}
	listed, err := s.driver.ListSubnets(ctx, neutron.Filter{NetworkIDs: []string{networkID}, ProjectID: s.projectID})
	if err != nil {
		return nil, fmt.Errorf("listing the subnets of Neutron network %s: %w", networkID, err)
	}
	ours := slices.DeleteFunc(neutron.InProject(listed, s.projectID), func(sub neutron.Subnet) bool {
		return sub.Description != neutron.ClusterDescription(owner.ClusterID)
	})
	s.index.SetSubnets(networkID, ours)
	subnets, _ := s.index.Subnets(networkID)
	return subnets, nil
}

// byItem splits the owner's subnets, oldest first, by the spec item their names carry: per
// item the one to keep (the one status names, else the oldest), and the others.
func byItem(owner neutron.Owner, subnets []neutron.Subnet, rec Recorded) (map[string]neutron.Subnet, []neutron.Subnet) {
	if len(subnets) == 0 {
		return nil, nil
	}
	groups := map[string][]neutron.Subnet{}
	for _, sub := range subnets {
		item := owner.SubnetItem(sub)
		groups[item] = append(groups[item], sub)
	}
	kept := make(map[string]neutron.Subnet, len(groups))
	var others []neutron.Subnet
	for item, group := range groups {
		keep, rest := keepOne(group, rec.Subnets[item])
		kept[item] = *keep
		others = append(others, rest...)
	}
	return kept, sortedSubnets(others)
}

// keepOne splits one owner's resources, oldest first, into the one to keep (the one status
// names, else the oldest) and the others; nil when there are none.
func keepOne[T interface{ GetID() string }](items []T, recordedID string) (*T, []T) {
	if len(items) == 0 {
		return nil, nil
	}
	i := max(slices.IndexFunc(items, func(r T) bool { return r.GetID() == recordedID }), 0)
	keep := items[i]
	return &keep, slices.Delete(slices.Clone(items), i, i+1)
}
