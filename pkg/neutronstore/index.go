package neutronstore

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// index is the Store's memory: the cluster's networks by owner and their subnets, as last
// listed and since changed through the Store.
//
// Besides what exists, the index records what is known not to exist: an owner is "absent"
// when no network of it can exist anywhere in Neutron (see SetAbsent). Without that proof,
// the only way to be sure is a list call by the owner's network name.
//
// index is safe for concurrent use.
type index struct {
	mu sync.Mutex
	// revision counts changes; Refill uses it to tell local changes made while its list
	// calls were in flight from older ones.
	revision uint64
	networks map[string]*indexedNetwork // by network ID
	owners   map[string]*ownerState     // by owner UID
	// shared are strings that most networks and subnets carry, such as the cluster's
	// description and tag: a record refers to them rather than holding a copy.
	shared []string
}

type indexedNetwork struct {
	// rec is the network and its subnets, oldest first (record.go).
	rec   record
	owner string
	// subnetsKnown says the record's subnets are complete. They are not after a subnet
	// create whose reply was lost, or for a network found by a lookup, until the subnets
	// are listed.
	subnetsKnown bool
}

type ownerState struct {
	networkIDs []string
	absent     bool
	// touched is the revision of the owner's last local change.
	touched uint64
}

// newIndex returns an empty index that keeps one copy of each of the shared strings.
func newIndex(shared ...string) *index {
	return &index{networks: map[string]*indexedNetwork{}, owners: map[string]*ownerState{}, shared: shared}
}

// Revision returns the current revision. Take it before the list calls of a refill.
func (x *index) Revision() uint64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.revision
}

// Refill replaces the index with the result of listing the cluster's networks and its
// subnets, which started at revision since. An owner changed locally after since keeps
// its local state: the lists may have been answered before that change.
func (x *index) Refill(since uint64, networks []neutron.Network, subnets []neutron.Subnet) {
	x.mu.Lock()
	defer x.mu.Unlock()

	subnetsByNetwork := map[string][]neutron.Subnet{}
	for _, s := range subnets {
		subnetsByNetwork[s.NetworkID] = append(subnetsByNetwork[s.NetworkID], s)
	}

	oldNetworks, oldOwners := x.networks, x.owners
	x.networks, x.owners = map[string]*indexedNetwork{}, map[string]*ownerState{}
	changedSince := map[string]bool{}
	for uid, st := range oldOwners {
		if st.touched > since {
			changedSince[uid] = true
			x.owners[uid] = st
			for _, id := range st.networkIDs {
				x.networks[id] = oldNetworks[id]
			}
		}
	}
	for _, n := range networks {
		uid, ok := neutron.OwnerUID(n)
		if !ok {
			continue
		}
		if changedSince[uid] {
			continue
		}
		x.addLocked(uid, n, subnetsByNetwork[n.ID], true)
	}
	// Proven absence stays proven: the list cannot show a network that cannot exist. An
	// owner the list does show networks for is not absent any more.
	for uid, st := range oldOwners {
		if st.absent && x.owners[uid] == nil {
			x.owners[uid] = &ownerState{absent: true, touched: st.touched}
		}
	}
}

// Has reports whether the index holds the network with that ID.
func (x *index) Has(networkID string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.networks[networkID]
	return ok
}

// Network returns network id as the index holds it, and the UID of its owner.
func (x *index) Network(id string) (n neutron.Network, ownerUID string, ok bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	in := x.networks[id]
	if in == nil {
		return neutron.Network{}, "", false
	}
	return in.rec.network(x.shared), in.owner, true
}

// Subnet returns the subnet of networkID with subnetID as the index holds it.
func (x *index) Subnet(networkID, subnetID string) (neutron.Subnet, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	in := x.networks[networkID]
	if in == nil {
		return neutron.Subnet{}, false
	}
	subnets := in.rec.subnets(x.shared)
	i := slices.IndexFunc(subnets, func(s neutron.Subnet) bool { return s.ID == subnetID })
	if i < 0 {
		return neutron.Subnet{}, false
	}
	return subnets[i], true
}

// Networks returns the owner's networks, oldest first. More than one means duplicates.
func (x *index) Networks(ownerUID string) []neutron.Network {
	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.owners[ownerUID]
	if st == nil {
		return nil
	}
	out := make([]neutron.Network, 0, len(st.networkIDs))
	for _, id := range st.networkIDs {
		out = append(out, x.networks[id].rec.network(x.shared))
	}
	slices.SortFunc(out, func(a, b neutron.Network) int { return oldestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return out
}

// Absent reports whether the owner is known to have no network in Neutron.
func (x *index) Absent(ownerUID string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.owners[ownerUID]
	return st != nil && st.absent && len(st.networkIDs) == 0
}

// SetAbsent records that the owner has no network: nothing was ever created for it, or a
// list by its network name found nothing.
func (x *index) SetAbsent(ownerUID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.ownerLocked(ownerUID)
	st.absent = len(st.networkIDs) == 0
}

// ForgetAbsence records that a network of the owner may exist after all: a create request
// failed without a reply that says whether Neutron carried it out.
func (x *index) ForgetAbsence(ownerUID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.ownerLocked(ownerUID).absent = false
}

// PutNetwork adds or replaces a network of the owner. subnetsKnown says the network has no
// subnets but those added later with PutSubnet: true for a network just created.
func (x *index) PutNetwork(ownerUID string, n neutron.Network, subnetsKnown bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if old, ok := x.networks[n.ID]; ok && old.owner == ownerUID {
		x.replaceLocked(old, n, old.rec.subnets(x.shared), old.subnetsKnown || subnetsKnown)
		return
	}
	x.removeNetworkLocked(n.ID)
	x.addLocked(ownerUID, n, nil, subnetsKnown)
}

// RemoveNetwork drops a deleted network and its subnets.
func (x *index) RemoveNetwork(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeNetworkLocked(id)
}

// Subnets returns the subnets of a network in the index and whether that list is complete.
func (x *index) Subnets(networkID string) (subnets []neutron.Subnet, known bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := x.networks[networkID]
	if n == nil {
		return nil, false
	}
	return n.rec.subnets(x.shared), n.subnetsKnown
}

// SetSubnets records the complete list of a network's subnets.
func (x *index) SetSubnets(networkID string, subnets []neutron.Subnet) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := x.networks[networkID]
	if n == nil {
		return
	}
	x.replaceLocked(n, n.rec.network(x.shared), subnets, true)
}

// PutSubnet adds or replaces a subnet of a network in the index.
func (x *index) PutSubnet(s neutron.Subnet) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := x.networks[s.NetworkID]
	if n == nil {
		return
	}
	subnets := n.rec.subnets(x.shared)
	if i := slices.IndexFunc(subnets, func(o neutron.Subnet) bool { return o.ID == s.ID }); i >= 0 {
		subnets[i] = s
	} else {
		subnets = append(subnets, s)
	}
	x.replaceLocked(n, n.rec.network(x.shared), subnets, n.subnetsKnown)
}

// RemoveSubnet drops a deleted subnet.
func (x *index) RemoveSubnet(networkID, subnetID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := x.networks[networkID]
	if n == nil {
		return
	}
	subnets := n.rec.subnets(x.shared)
	if kept := slices.DeleteFunc(slices.Clone(subnets), func(s neutron.Subnet) bool { return s.ID == subnetID }); len(kept) < len(subnets) {
		x.replaceLocked(n, n.rec.network(x.shared), kept, n.subnetsKnown)
		return
	}
	x.ownerLocked(n.owner)
}

// ForgetSubnets records that a network's subnet list may be incomplete: a subnet create
// failed without a reply that says whether Neutron carried it out.
func (x *index) ForgetSubnets(networkID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if n := x.networks[networkID]; n != nil {
		n.subnetsKnown = false
		x.ownerLocked(n.owner)
	}
}

// Owners returns the UID of every owner that has networks in the index.
func (x *index) Owners() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]string, 0, len(x.owners))
	for uid, st := range x.owners {
		if len(st.networkIDs) > 0 {
			out = append(out, uid)
		}
	}
	slices.Sort(out)
	return out
}

// Len returns the number of networks in the index.
func (x *index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.networks)
}

// ownerLocked returns the owner's state, creating it, and marks it changed now.
func (x *index) ownerLocked(uid string) *ownerState {
	x.revision++
	st := x.owners[uid]
	if st == nil {
		st = &ownerState{}
		x.owners[uid] = st
	}
	st.touched = x.revision
	return st
}

// addLocked adds a network the index does not hold. The map keys and the owner's UID
// point into the network's record, which the index keeps anyway, rather than at strings
// of a reply or of an older record.
func (x *index) addLocked(uid string, n neutron.Network, subnets []neutron.Subnet, subnetsKnown bool) {
	rec := packRecord(x.shared, n, sortedSubnets(slices.Clone(subnets)))
	packed := rec.network(x.shared)
	if u, ok := neutron.OwnerUID(packed); ok && u == uid {
		uid = u
	} else {
		uid = strings.Clone(uid)
	}
	x.networks[packed.ID] = &indexedNetwork{rec: rec, owner: uid, subnetsKnown: subnetsKnown}
	if st, ok := x.owners[uid]; ok {
		// A map keeps the key it was first given: put the owner back under this copy.
		delete(x.owners, uid)
		x.owners[uid] = st
	}
	st := x.ownerLocked(uid)
	st.networkIDs = append(st.networkIDs, packed.ID)
	st.absent = false
}

// replaceLocked puts a network's changed record in place of in's, and the keys that
// pointed into the old record with it.
func (x *index) replaceLocked(in *indexedNetwork, n neutron.Network, subnets []neutron.Subnet, subnetsKnown bool) {
	owner := in.owner
	x.removeNetworkLocked(n.ID)
	x.addLocked(owner, n, subnets, subnetsKnown)
}

func (x *index) removeNetworkLocked(id string) {
	n := x.networks[id]
	if n == nil {
		return
	}
	delete(x.networks, id)
	st := x.ownerLocked(n.owner)
	st.networkIDs = slices.DeleteFunc(st.networkIDs, func(v string) bool { return v == id })
}

// sortedSubnets sorts subnets oldest first, in place, and returns them.
func sortedSubnets(subnets []neutron.Subnet) []neutron.Subnet {
	slices.SortFunc(subnets, func(a, b neutron.Subnet) int { return oldestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return subnets
}

// oldestFirst orders by creation time, then by ID.
func oldestFirst(a, b time.Time, aID, bID string) int {
	return cmp.Or(a.Compare(b), strings.Compare(aID, bID))
}
