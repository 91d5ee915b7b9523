package neutron

import (
	"slices"
	"sync"
)

// routerBook is the Store's memory of routers: the project's routers it has seen, the
// router interfaces on each network it read them of (see routers.go), and the external
// networks by name. Safe for concurrent use.
type routerBook struct {
	views *networkBook[Port]

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
	Router
	// written is the views revision of the last change through the Store (0: listed).
	written uint64
}

func newRouterBook() *routerBook {
	return &routerBook{views: newNetworkBook[Port](), routers: map[string]seenRouter{}, externals: map[string]string{}}
}

// view returns the routers of ownerUID (from their names) and the interfaces on networkID,
// and whether the book knows them.
func (b *routerBook) view(clusterID, ownerUID, networkID string) (owned []Router, interfaces []Port, known bool) {
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
	slices.SortFunc(owned, func(a, b Router) int { return oldestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return owned, interfaces, true
}

// router returns the router that ref names among those the book has seen; by name, only
// when one has it.
func (b *routerBook) router(ref Ref) (Router, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ref.ID != "" {
		r, ok := b.routers[ref.ID]
		return r.Router, ok
	}
	var found []Router
	for _, r := range b.routers {
		if r.Name == ref.Name {
			found = append(found, r.Router)
		}
	}
	if len(found) != 1 {
		return Router{}, false
	}
	return found[0], true
}

// putRouter records r, as a call through the Store made or read it.
func (b *routerBook) putRouter(r Router) {
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

// attached records the interface i on networkID.
func (b *routerBook) attached(networkID string, i Interface) {
	b.views.update(networkID, func(ports []Port) []Port {
		return append(ports, Port{ID: i.PortID, NetworkID: networkID, DeviceOwner: InterfaceOwner, DeviceID: i.RouterID,
			FixedIPs: []FixedIP{{SubnetID: i.SubnetID}}})
	})
}

// detached records that i's router has no interface on i's subnet any more.
func (b *routerBook) detached(networkID string, i Interface) {
	b.views.update(networkID, func(ports []Port) []Port {
		out := ports[:0]
		for _, p := range ports {
			if p.DeviceID == i.RouterID {
				p.FixedIPs = slices.DeleteFunc(slices.Clone(p.FixedIPs), func(ip FixedIP) bool { return ip.SubnetID == i.SubnetID })
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
func (b *routerBook) setExternals(nets []Network, projectID string) {
	byName := map[string][]Network{}
	for _, n := range nets {
		byName[n.Name] = append(byName[n.Name], n)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.externals)
	for name, named := range byName {
		if named = ownFirst(named, projectID); len(named) == 1 {
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
func (b *routerBook) refill(since uint64, networkIDs []string, routers []Router, interfaces []Port) {
	b.views.refill(since, networkIDs, interfaces, func(p Port) string { return p.NetworkID })
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
