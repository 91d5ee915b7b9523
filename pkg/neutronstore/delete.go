package neutronstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/samplecrd/network-controller/pkg/crashpoint"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Deleting is where a mistake costs someone else's network, so nothing is deleted on a
// say-so: a network or subnet is deleted only while the store holds it as the cluster's
// (its description) and the owner's (its tags or name), in the store's project. The store
// holds only what its project's lists and its own writes showed it; an ID from a
// Network's status is a hint, read from Neutron before it is believed.

// DeleteResult is what DeleteOwned did.
type DeleteResult struct {
	// Deleted are the IDs of the networks deleted, each with its subnets.
	Deleted []string
	// DeletedRouters are the IDs of the owner's routers deleted before its networks.
	DeletedRouters []string
	// NotOwned are networks the status named that are not the owner's (another
	// cluster's or nobody's marks): left as they are.
	NotOwned []neutron.Network
}

// DeleteOwned deletes every network of the owner. Those are the ones the store holds as
// the owner's and the one status names if a read shows it is the owner's; only when there
// is none, and the store cannot prove there is none, does it look the owner's network up by
// name, which finds one whose create it never saw (made by a process that died before it
// could record it).
func (s *Store) DeleteOwned(ctx context.Context, owner neutron.Owner, rec Recorded) (DeleteResult, error) {
	var res DeleteResult
	ids := networkIDsOf(s.index.Networks(owner.UID))
	if rec.NetworkID != "" && !slices.Contains(ids, rec.NetworkID) {
		n, found, err := s.readNetwork(ctx, rec.NetworkID)
		switch {
		case err != nil:
			return res, err
		case !found:
			// Gone, or not in this project: nothing of it is this store's to delete.
		case s.owns(owner, n):
			s.index.PutNetwork(owner.UID, n, false)
			ids = append(ids, n.ID)
		default:
			res.NotOwned = append(res.NotOwned, n)
		}
	}
	if len(ids) == 0 && !s.index.Absent(owner.UID) {
		found, err := OwnedNetworks(ctx, s.driver, owner, s.projectID)
		if err != nil {
			return res, err
		}
		for _, n := range found {
			s.index.PutNetwork(owner.UID, n, false)
			ids = append(ids, n.ID)
		}
	}
	for _, id := range ids {
		routers, err := s.deleteNetwork(ctx, owner.UID, id, rec.RouterID)
		res.DeletedRouters = append(res.DeletedRouters, routers...)
		if err != nil {
			return res, err
		}
		res.Deleted = append(res.Deleted, id)
	}
	s.index.SetAbsent(owner.UID)
	return res, nil
}

// DeleteNetwork deletes the owner's network id with its subnets, after detaching them from
// the owner's routers and deleting those. Already gone counts as done; a network the store
// does not hold as the owner's is refused.
func (s *Store) DeleteNetwork(ctx context.Context, ownerUID, id string) error {
	_, err := s.deleteNetwork(ctx, ownerUID, id, "")
	return err
}

// deleteNetwork is DeleteNetwork, detaching the subnets from recordedRouter too, and
// returns the routers it deleted.
func (s *Store) deleteNetwork(ctx context.Context, ownerUID, id, recordedRouter string) ([]string, error) {
	n, holder, ok := s.index.Network(id)
	if !ok || holder != ownerUID || n.Description != neutron.ClusterDescription(s.clusterID) {
		return nil, fmt.Errorf("refusing to delete Neutron network %s: this controller does not know it as a network of Network UID %s", id, ownerUID)
	}
	// Interfaces first, then the routers: a router interface keeps a network from going.
	routers, err := s.detachRouters(ctx, n, recordedRouter)
	if err != nil {
		return routers, err
	}
	if len(routers) > 0 || neutron.RouterMarked(n) {
		crashpoint.Reached(crashpoint.RoutersDeleted)
	}
	if err := s.driver.DeleteNetwork(ctx, id); err != nil {
		return routers, s.namingPorts(ctx, err, neutron.Filter{NetworkIDs: []string{id}})
	}
	s.index.RemoveNetwork(id)
	s.shares.forget(id)
	s.routers.views.forget(id)
	return routers, nil
}

// DeleteSubnet deletes a subnet of a network the store holds. Already gone counts as
// done; a subnet the store does not hold as the cluster's is refused.
func (s *Store) DeleteSubnet(ctx context.Context, subnet neutron.Subnet) error {
	held, ok := s.index.Subnet(subnet.NetworkID, subnet.ID)
	if !ok || held.Description != neutron.ClusterDescription(s.clusterID) {
		return fmt.Errorf("refusing to delete Neutron subnet %s: this controller does not know it as a subnet of this cluster", subnet.ID)
	}
	if err := s.driver.DeleteSubnet(ctx, subnet.ID); err != nil {
		return s.namingPorts(ctx, err, neutron.Filter{SubnetID: subnet.ID})
	}
	s.index.RemoveSubnet(subnet.NetworkID, subnet.ID)
	return nil
}

// namingPorts returns err, when it says the resource is in use, with the ports that use
// it (found by filter) named in its message, so that their owner can be told; err as it
// is when the ports cannot be listed.
func (s *Store) namingPorts(ctx context.Context, err error, filter neutron.Filter) error {
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != neutron.KindInUse {
		return err
	}
	ports, lerr := s.driver.ListPorts(ctx, filter)
	if lerr != nil || len(ports) == 0 {
		return err
	}
	named := *ne
	named.Message = fmt.Sprintf("%s Ports using it: %s", strings.TrimSpace(ne.Message), neutron.PortsText(ports))
	return &named
}

// readNetwork reads network id in the store's project: one list call by ID, which answers
// an empty list rather than 404 for a network that is gone or of another project.
func (s *Store) readNetwork(ctx context.Context, id string) (neutron.Network, bool, error) {
	nets, err := s.driver.ListNetworks(ctx, neutron.Filter{IDs: []string{id}, ProjectID: s.projectID})
	if err != nil {
		return neutron.Network{}, false, fmt.Errorf("reading Neutron network %s: %w", id, err)
	}
	nets = neutron.InProject(nets, s.projectID)
	i := slices.IndexFunc(nets, func(n neutron.Network) bool { return n.ID == id })
	if i < 0 {
		return neutron.Network{}, false, nil
	}
	return nets[i], true, nil
}

// owns reports whether n carries the marks of the owner: the cluster's description, the
// owner's UID in its tags or name, and the store's project.
func (s *Store) owns(owner neutron.Owner, n neutron.Network) bool {
	uid, ok := neutron.OwnerUID(n)
	return ok && uid == owner.UID && n.Description == neutron.ClusterDescription(owner.ClusterID) &&
		(s.projectID == "" || n.ProjectID == s.projectID)
}

func networkIDsOf(nets []neutron.Network) []string {
	ids := make([]string, 0, len(nets))
	for _, n := range nets {
		ids = append(ids, n.ID)
	}
	return ids
}
