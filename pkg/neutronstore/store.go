// Package neutronstore is the Store: this cluster's Neutron resources of one project,
// cached over a neutron.Driver, filled by a few list calls and kept current by every
// write made through it, so that reconciles ask it rather than Neutron; and the two
// lookups that find what a cluster's controller made (OwnedNetworks, ClusterResources).
// What it caches and how a Network's resources are compared (the model: resources,
// ownership marks, Diff) is pkg/neutron, which knows nothing of this package.
package neutronstore

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/samplecrd/network-controller/pkg/crashpoint"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Store is this cluster's Neutron networks and subnets as the controller knows them: a
// write-through cache over a Driver, in the spirit of an informer. Two list calls fill it
// (Fill); every create, tag, update and delete made through it keeps it current, so
// questions are answered from memory and Neutron is asked only when memory cannot prove
// the answer. One Store serves one Neutron endpoint and project; Using gives the same
// Store reached through another credential of that project.
//
// Every list keeps to the Store's project, and everything listed is checked against it:
// a network another project shares with this one is never the cluster's, whatever its
// description says, so it is never adopted, repaired or deleted.
//
// Store is safe for concurrent use.
type Store struct {
	driver    neutron.Driver
	clusterID string
	// projectID is the project of the driver's token; "" for a Neutron without
	// authentication, which sees (and lists) every project.
	projectID string
	index     *index
	addresses *addressBook
	shares    *networkBook[neutron.RBACPolicy]
	routers   *routerBook
	refs      *referenceBook
	// filledAt is when the last Fill that succeeded began listing, in Unix nanoseconds
	// (0: never): what the store holds is Neutron as of then, and the writes since.
	filledAt *atomic.Int64
}

// New returns an empty Store of clusterID's resources in projectID, reached through
// driver, whose token is scoped to projectID.
func New(driver neutron.Driver, clusterID, projectID string) *Store {
	return &Store{driver: driver, clusterID: clusterID, projectID: projectID,
		index: newIndex(neutron.ClusterDescription(clusterID), neutron.ClusterTag(clusterID), neutron.RetainTag, projectID), addresses: &addressBook{},
		shares: newNetworkBook[neutron.RBACPolicy](), routers: newRouterBook(), refs: &referenceBook{}, filledAt: &atomic.Int64{}}
}

// Using returns the store reached through driver: the same resources and memory, for a
// caller that authenticates with other credentials of the same project.
func (s *Store) Using(driver neutron.Driver) *Store {
	return &Store{driver: driver, clusterID: s.clusterID, projectID: s.projectID, index: s.index, addresses: s.addresses, shares: s.shares,
		routers: s.routers, refs: s.refs, filledAt: s.filledAt}
}

// Fill lists the cluster's networks and subnets by the cluster's description and replaces
// what the store knew: two calls, whatever the number of Networks, a third for the RBAC
// policies when a network carries SharingTag, and three for the routers, their interfaces
// and the external networks when one carries RouterTag. The lists include
// networks never tagged, whose create was interrupted or came from a deposed leader.
func (s *Store) Fill(ctx context.Context) error {
	began := time.Now()
	since, sharesSince, routersSince := s.index.Revision(), s.shares.rev(), s.routers.views.rev()
	nets, subnets, err := ClusterResources(ctx, s.driver, s.clusterID, s.projectID)
	if err != nil {
		return err
	}
	s.index.Refill(since, nets, subnets)
	if err := s.fillShares(ctx, sharesSince, nets); err != nil {
		return err
	}
	if err := s.fillRouters(ctx, routersSince, nets); err != nil {
		return err
	}
	s.filledAt.Store(began.UnixNano())
	return nil
}

// FilledAt returns when the last Fill that succeeded began listing: the store holds
// Neutron as of then, and the writes made through it since. Zero when never filled.
func (s *Store) FilledAt() time.Time {
	if ns := s.filledAt.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// Len returns the number of networks the store knows.
func (s *Store) Len() int { return s.index.Len() }

// Owners returns the UID of every owner the store knows networks of.
func (s *Store) Owners() []string { return s.index.Owners() }

// CachedNetworks returns the owner's networks the store knows, oldest first, asking no one.
func (s *Store) CachedNetworks(ownerUID string) []neutron.Network { return s.index.Networks(ownerUID) }

// RecordAbsent records that the owner has no network: its finalizer went on just now, and
// no network is ever created before it.
func (s *Store) RecordAbsent(owner neutron.Owner) { s.index.SetAbsent(owner.UID) }

// CreateNetwork creates the owner's network as wanted, then tags it. The create request
// itself carries the marks that find the network if the tag call never happens.
func (s *Store) CreateNetwork(ctx context.Context, owner neutron.Owner, want neutron.DesiredNetwork, marks neutron.Marks) (neutron.Network, error) {
	created, err := s.driver.CreateNetwork(ctx, neutron.NetworkRequest{
		Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), NetworkAttrs: want.NetworkAttrs,
	})
	if err != nil {
		if outcomeUnknown(err) {
			// Neutron may have created it: only a lookup can tell now.
			s.index.ForgetAbsence(owner.UID)
		}
		return neutron.Network{}, err
	}
	// Known before tagging: if the tag call fails, the retry tags this network. A new
	// network is shared with no one yet.
	s.index.PutNetwork(owner.UID, created, true)
	s.shares.set(created.ID, nil)
	s.routers.views.set(created.ID, nil)
	crashpoint.Reached(crashpoint.NetworkCreated)
	tagged, err := s.tag(ctx, owner, created, marks)
	if err != nil {
		return neutron.Network{}, err
	}
	crashpoint.Reached(crashpoint.NetworkTagged)
	return tagged, nil
}

// Retag makes the owner's network n carry marks in its tags.
func (s *Store) Retag(ctx context.Context, owner neutron.Owner, n neutron.Network, marks neutron.Marks) (neutron.Network, error) {
	return s.tag(ctx, owner, n, marks)
}

// UpdateNetwork changes the attributes of the owner's network that change names.
func (s *Store) UpdateNetwork(ctx context.Context, owner neutron.Owner, id string, change neutron.NetworkAttrs) (neutron.Network, error) {
	updated, err := s.driver.UpdateNetwork(ctx, id, change)
	if err != nil {
		s.forgetIfGone(err, id)
		return neutron.Network{}, err
	}
	s.index.PutNetwork(owner.UID, updated, false)
	return updated, nil
}

// CreateSubnet creates the owner's subnet of an item on its network, named after the item
// so that a create whose reply is lost is found, not made twice. A pool subnet's pool is
// looked up first.
func (s *Store) CreateSubnet(ctx context.Context, owner neutron.Owner, networkID string, want neutron.DesiredSubnet) (neutron.Subnet, error) {
	req := neutron.SubnetRequest{
		NetworkID: networkID, Name: owner.SubnetName(want.Item), Description: neutron.ClusterDescription(owner.ClusterID),
		CIDR: want.CIDR, IPVersion: want.IPVersion, IPv6Modes: want.IPv6Modes, SubnetAttrs: want.SubnetAttrs,
	}
	if want.Pool != nil {
		pool, err := s.subnetPool(ctx, *want.Pool)
		if err != nil {
			return neutron.Subnet{}, err
		}
		req.SubnetPoolID, req.PrefixLength, req.IPVersion = pool.ID, want.PrefixLength, pool.IPVersion
	}
	created, err := s.driver.CreateSubnet(ctx, req)
	if err != nil {
		if outcomeUnknown(err) {
			// Neutron may have created it: the network's subnets must be listed again.
			s.index.ForgetSubnets(networkID)
		}
		if overlapsAnotherSubnet(err) {
			// Only another subnet on this network overlaps: most likely another create
			// of this one that landed after the store listed (sent by a deposed leader,
			// or by a process killed while Neutron was still carrying it out). Not a
			// fault of the spec: the retry lists the network's subnets and finds it.
			s.index.ForgetSubnets(networkID)
			return neutron.Subnet{}, asConflict(err)
		}
		// Not found: the network went away under the create; the retry recreates it.
		s.forgetIfGone(err, networkID)
		return neutron.Subnet{}, err
	}
	s.index.PutSubnet(created)
	return created, nil
}

// UpdateSubnet changes the attributes of a subnet that change names.
func (s *Store) UpdateSubnet(ctx context.Context, subnet neutron.Subnet, change neutron.SubnetAttrs) (neutron.Subnet, error) {
	updated, err := s.driver.UpdateSubnet(ctx, subnet.ID, change)
	if err != nil {
		if neutron.IsNotFound(err) {
			s.index.RemoveSubnet(subnet.NetworkID, subnet.ID)
		}
		return neutron.Subnet{}, err
	}
	s.index.PutSubnet(updated)
	return updated, nil
}

// RenameSubnet gives the owner's subnet the name of another item: the one whose range it
// has, after the form moved or the item was renamed.
func (s *Store) RenameSubnet(ctx context.Context, owner neutron.Owner, subnet neutron.Subnet, item string) (neutron.Subnet, error) {
	renamed, err := s.driver.RelabelSubnet(ctx, subnet.ID, neutron.Label{Name: owner.SubnetName(item), Description: neutron.ClusterDescription(owner.ClusterID)})
	if err != nil {
		if neutron.IsNotFound(err) {
			s.index.RemoveSubnet(subnet.NetworkID, subnet.ID)
		}
		return neutron.Subnet{}, err
	}
	s.index.PutSubnet(renamed)
	return renamed, nil
}

// tag gives n the owner's tags, with the marks'; tags of others stay.
func (s *Store) tag(ctx context.Context, owner neutron.Owner, n neutron.Network, marks neutron.Marks) (neutron.Network, error) {
	tags := neutron.MarkedTags(n.Tags, owner, marks)
	if err := s.driver.SetNetworkTags(ctx, n.ID, tags); err != nil {
		s.forgetIfGone(err, n.ID)
		return neutron.Network{}, err
	}
	n.Tags = tags
	s.index.PutNetwork(owner.UID, n, false)
	return n, nil
}

// forgetIfGone drops a network that a call found gone (deleted in Neutron under it).
func (s *Store) forgetIfGone(err error, networkID string) {
	if neutron.IsNotFound(err) {
		s.index.RemoveNetwork(networkID)
	}
}

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
