package neutronstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Releasing a network leaves it and its subnets in Neutron without any of the cluster's
// marks (pkg/neutron's ownership.go), for a Network whose deletion policy is Retain:
// nothing of the cluster finds it any more, so it is never collected, adopted or repaired
// again.
//
// The marks go in three calls (after one per router the controller made for the network,
// which keeps its gateway and interfaces, released of its name and description the same
// way), in an order that keeps a release cut off half way (by a crash, or a failed call)
// both safe and resumable:
//
//  1. The network's description and name. Every list the controller finds its networks
//     by filters on the description, so from here on no fill, lookup, orphan collection
//     or adoption sees the network. Its tags still say whose it is.
//  2. The description and name of its subnets.
//  3. The network's tags: the cluster's, the owner's and the policy's; others stay.
//
// A resumed release finds a network past step 1 by the owner's tags, one list call, and
// its subnets past step 1 by their description.

// Released is a network left in Neutron without the cluster's marks, with the subnets
// released with it.
type Released struct {
	Network neutron.Network
	Subnets []neutron.Subnet
}

// ReleaseOwned releases every network of the owner with its subnets: those the store
// knows, the one status names, and any whose release was cut off after its first step.
// It never deletes anything.
func (s *Store) ReleaseOwned(ctx context.Context, owner neutron.Owner, rec Recorded) ([]Released, error) {
	nets := s.index.Networks(owner.UID)
	known := slices.ContainsFunc(nets, func(n neutron.Network) bool { return n.ID == rec.NetworkID })
	if (rec.NetworkID != "" && !known) || (len(nets) == 0 && !s.index.Absent(owner.UID)) {
		// Not in the store: released in part already (no description any more), or made
		// after the last fill. The owner's tags find the first kind; a network of the
		// second kind that was never tagged is no Network's yet, and the orphan
		// collection deletes it.
		found, err := s.driver.ListNetworks(ctx, neutron.Filter{Tags: owner.Tags(), ProjectID: s.projectID})
		if err != nil {
			return nil, fmt.Errorf("looking up the Neutron networks of Network %s/%s by their tags: %w", owner.Namespace, owner.Name, err)
		}
		for _, n := range neutron.InProject(found, s.projectID) {
			if !slices.ContainsFunc(nets, func(k neutron.Network) bool { return k.ID == n.ID }) {
				nets = append(nets, n)
			}
		}
	}
	var out []Released
	for _, n := range nets {
		r, err := s.Release(ctx, owner.UID, n)
		if err != nil {
			return out, err
		}
		if r.Network.ID != "" {
			out = append(out, r)
		}
	}
	s.index.SetAbsent(owner.UID)
	return out, nil
}

// Release releases the network n of the owner ownerUID, with its subnets, in the order
// above; each step already done is skipped. A network found deleted meanwhile is no
// error: the Released returned is then empty.
func (s *Store) Release(ctx context.Context, ownerUID string, n neutron.Network) (Released, error) {
	if err := s.releaseRouters(ctx, ownerUID, n); err != nil {
		return Released{}, err
	}
	if label := neutron.UnmarkedLabel(n.Name, n.Description, s.clusterID, ownerUID); label != (neutron.Label{Name: n.Name, Description: n.Description}) {
		relabeled, err := s.driver.RelabelNetwork(ctx, n.ID, label)
		if neutron.IsNotFound(err) {
			s.index.RemoveNetwork(n.ID)
			return Released{}, nil
		}
		if err != nil {
			return Released{}, fmt.Errorf("removing the cluster's description and name from Neutron network %s: %w", n.ID, err)
		}
		n = relabeled
		// Kept until released in full, so that a retry in this process skips this step.
		s.index.PutNetwork(ownerUID, n, false)
	}

	subnets, err := s.markedSubnets(ctx, n.ID)
	if err != nil {
		return Released{}, err
	}
	released := Released{Network: n}
	for _, sub := range subnets {
		relabeled, err := s.driver.RelabelSubnet(ctx, sub.ID, neutron.UnmarkedLabel(sub.Name, sub.Description, s.clusterID, ownerUID))
		if neutron.IsNotFound(err) {
			continue
		}
		if err != nil {
			return Released{}, fmt.Errorf("removing the cluster's description and name from Neutron subnet %s: %w", sub.ID, err)
		}
		s.index.RemoveSubnet(n.ID, sub.ID)
		released.Subnets = append(released.Subnets, relabeled)
	}

	if kept := neutron.UnmarkedTags(n.Tags, s.clusterID, ownerUID); len(kept) != len(n.Tags) {
		if err := s.driver.SetNetworkTags(ctx, n.ID, kept); err != nil && !neutron.IsNotFound(err) {
			return Released{}, fmt.Errorf("removing the cluster's tags from Neutron network %s: %w", n.ID, err)
		}
		released.Network.Tags = kept
	}
	s.index.RemoveNetwork(n.ID)
	return released, nil
}

// releaseRouters takes the cluster's name and description off the owner's routers of n,
// which stay attached as they are. It goes first: the routers are found by n's name, which
// the next step takes away. A network without RouterTag costs nothing.
func (s *Store) releaseRouters(ctx context.Context, ownerUID string, n neutron.Network) error {
	if !neutron.RouterMarked(n) || n.Description != neutron.ClusterDescription(s.clusterID) {
		return nil
	}
	owned, err := s.ownedRouters(ctx, n)
	if err != nil {
		return err
	}
	for _, r := range owned {
		if _, err := s.driver.RelabelRouter(ctx, r.ID, neutron.UnmarkedLabel(r.Name, r.Description, s.clusterID, ownerUID)); err != nil && !neutron.IsNotFound(err) {
			return fmt.Errorf("removing the cluster's description and name from Neutron router %s: %w", r.ID, err)
		}
		s.routers.removeRouter(r.ID)
	}
	return nil
}

// markedSubnets returns the subnets on networkID that still carry the cluster's
// description: from memory when the store knows them, else listed (one call).
func (s *Store) markedSubnets(ctx context.Context, networkID string) ([]neutron.Subnet, error) {
	if subnets, known := s.index.Subnets(networkID); known {
		return subnets, nil
	}
	listed, err := s.driver.ListSubnets(ctx, neutron.Filter{NetworkIDs: []string{networkID}, Description: neutron.ClusterDescription(s.clusterID), ProjectID: s.projectID})
	if err != nil {
		return nil, fmt.Errorf("listing this cluster's subnets on Neutron network %s: %w", networkID, err)
	}
	return neutron.InProject(listed, s.projectID), nil
}
