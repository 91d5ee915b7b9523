package neutronstore

import (
	"slices"
	"sync"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// routerBook is the Store's memory of routers: the project's routers it has seen, the
// router interfaces on each network it read them of (see pkg/neutron's routers.go), and
// the external networks by name. Safe for concurrent use.
type routerBook struct {
	views *networkBook[neutron.Port]

	mu      sync.Mutex
	routers map[string]seenRouter
	// externals are external network IDs by name, as last filled or looked up, until a
	// router call finds one gone.
	externals map[string]string
	// lookups lets one worker at a time look an external network up, so that workers
	// starting together ask Neutron once, not once each.
	lookups sync.Mutex
}

type seenRouter struct {
	neutron.Router
	// written is the views revision of the last change through the Store (0: listed).
	written uint64
}

func newRouterBook() *routerBook {
	return &routerBook{views: newNetworkBook[neutron.Port](), routers: map[string]seenRouter{}, externals: map[string]string{}}
}

// view returns the routers of ownerUID (from their names) and the interfaces on networkID,
// and whether the book knows them.
func (b *routerBook) view(clusterID, ownerUID, networkID string) (owned []neutron.Router, interfaces []neutron.Port, known bool) {
	interfaces, known = b.views.of(networkID)
	if !known {
		return nil, nil, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.routers {
		if uid, ok := routerOwnerUID(r.Router, clusterID); ok && uid == ownerUID {
			owned = append(owned, r.Router)
		}
	}
	slices.SortFunc(owned, func(a, b neutron.Router) int { return oldestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return owned, interfaces, true
}

// routerOwnerUID returns the UID of the owner whose router r is, from the name its create
// gave it, when r carries the cluster's description.
func routerOwnerUID(r neutron.Router, clusterID string) (string, bool) {
	if r.Description != neutron.ClusterDescription(clusterID) {
		return "", false
	}
	return neutron.OwnerUID(neutron.Network{Name: r.Name})
}

// router returns the router that ref names among those the book has seen; by name, only
// when one has it.
func (b *routerBook) router(ref neutron.Ref) (neutron.Router, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ref.ID != "" {
		r, ok := b.routers[ref.ID]
		return r.Router, ok
	}
	var found []neutron.Router
	for _, r := range b.routers {
		if r.Name == ref.Name {
			found = append(found, r.Router)
		}
	}
	if len(found) != 1 {
		return neutron.Router{}, false
	}
	return found[0], true
}

// putRouter records r, as a call through the Store made or read it.
func (b *routerBook) putRouter(r neutron.Router) {
	written := b.views.bump()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.routers[r.ID] = seenRouter{Router: r, written: written}
}

func (b *routerBook) removeRouter(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.routers, id)
}

// attached records the interface i on networkID. Its port may be known already: a fill
// whose list ran between the call and its reply has it, and Neutron may add a subnet to a
// router's port on the network rather than make another.
func (b *routerBook) attached(networkID string, i neutron.Interface) {
	b.views.update(networkID, func(ports []neutron.Port) []neutron.Port {
		at := slices.IndexFunc(ports, func(p neutron.Port) bool { return p.ID == i.PortID })
		if at < 0 {
			return append(ports, neutron.Port{ID: i.PortID, NetworkID: networkID, DeviceOwner: neutron.InterfaceOwner, DeviceID: i.RouterID,
				FixedIPs: []neutron.FixedIP{{SubnetID: i.SubnetID}}})
		}
		if !slices.ContainsFunc(ports[at].FixedIPs, func(ip neutron.FixedIP) bool { return ip.SubnetID == i.SubnetID }) {
			ports[at].FixedIPs = append(slices.Clone(ports[at].FixedIPs), neutron.FixedIP{SubnetID: i.SubnetID})
		}
		return ports
	})
}

// detached records that i's router has no interface on i's subnet any more.
func (b *routerBook) detached(networkID string, i neutron.Interface) {
	b.views.update(networkID, func(ports []neutron.Port) []neutron.Port {
		out := ports[:0]
		for _, p := range ports {
			if p.DeviceID == i.RouterID {
				p.FixedIPs = slices.DeleteFunc(slices.Clone(p.FixedIPs), func(ip neutron.FixedIP) bool { return ip.SubnetID == i.SubnetID })
				if len(p.FixedIPs) == 0 {
					continue
				}
			}
			out = append(out, p)
		}
		return out
	})
}

func (b *routerBook) external(name string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := b.externals[name]
	return id, ok
}

func (b *routerBook) putExternal(name, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.externals[name] = id
}

// setExternals replaces the external networks by name with those listed, the project
// projectID's own first; a name several have is left out, so that its lookup says so.
func (b *routerBook) setExternals(nets []neutron.Network, projectID string) {
	byName := map[string][]neutron.Network{}
	for _, n := range nets {
		byName[n.Name] = append(byName[n.Name], n)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.externals)
	for name, named := range byName {
		if named = neutron.OwnFirst(named, projectID); len(named) == 1 {
			b.externals[name] = named[0].ID
		}
	}
}

func (b *routerBook) forgetExternals() {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.externals)
}

// refill replaces what the book knows with the project's routers and the interfaces of
// the networks listed, lists that started at views revision since (see networkBook): a
// router made or changed through the Store after since stays as the Store has it. One
// deleted meanwhile may come back from the list; calls on it answer 404, which drops it.
func (b *routerBook) refill(since uint64, networkIDs []string, routers []neutron.Router, interfaces []neutron.Port) {
	b.views.refill(since, networkIDs, interfaces, func(p neutron.Port) string { return p.NetworkID })
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.routers
	b.routers = make(map[string]seenRouter, len(routers))
	for _, r := range routers {
		b.routers[r.ID] = seenRouter{Router: r}
	}
	for id, r := range old {
		if r.written > since {
			b.routers[id] = r
		}
	}
}
