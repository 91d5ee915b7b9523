package neutron

import (
	"slices"
	"sync"
)

// routerBook is the Store's memory of routers: the project's routers it has seen, and per
// network the router interfaces on it, for the networks it read them of (see routers.go).
// Safe for concurrent use.
type routerBook struct {
	mu       sync.Mutex
	revision uint64
	routers  map[string]Router
	views    map[string]routerView
	// externals are external network IDs by name, as last filled or looked up, until a
	// router call finds one gone.
	externals map[string]string
}

type routerView struct {
	interfaces []Port
	// written is the revision of the last change through the Store.
	written uint64
}

func newRouterBook() *routerBook {
	return &routerBook{routers: map[string]Router{}, views: map[string]routerView{}, externals: map[string]string{}}
}

// view returns the routers of ownerUID (from their names) and the interfaces on networkID,
// and whether the book knows them.
func (b *routerBook) view(clusterID, ownerUID, networkID string) (owned []Router, interfaces []Port, known bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, known := b.views[networkID]
	if !known {
		return nil, nil, false
	}
	for _, r := range b.routers {
		if uid, ok := routerOwnerUID(r, clusterID); ok && uid == ownerUID {
			owned = append(owned, r)
		}
	}
	slices.SortFunc(owned, func(a, b Router) int { return oldestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return owned, slices.Clone(v.interfaces), true
}

// router returns the router that ref names among those the book has seen.
func (b *routerBook) router(ref Ref) (Router, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ref.ID != "" {
		r, ok := b.routers[ref.ID]
		return r, ok
	}
	var found []Router
	for _, r := range b.routers {
		if r.Name == ref.Name {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		return Router{}, false
	}
	return found[0], true
}

func (b *routerBook) putRouter(r Router) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	b.routers[r.ID] = r
}

func (b *routerBook) removeRouter(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	delete(b.routers, id)
}

func (b *routerBook) setView(networkID string, interfaces []Port) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	b.views[networkID] = routerView{interfaces: interfaces, written: b.revision}
}

func (b *routerBook) forgetView(networkID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	delete(b.views, networkID)
}

// attached records that routerID has an interface, port portID, on subnetID of networkID.
func (b *routerBook) attached(networkID string, i Interface) {
	b.update(networkID, func(ports []Port) []Port {
		return append(ports, Port{ID: i.PortID, NetworkID: networkID, DeviceOwner: InterfaceOwner, DeviceID: i.RouterID,
			FixedIPs: []FixedIP{{SubnetID: i.SubnetID}}})
	})
}

// detached records that routerID has no interface on subnetID any more.
func (b *routerBook) detached(networkID string, i Interface) {
	b.update(networkID, func(ports []Port) []Port {
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

func (b *routerBook) update(networkID string, change func([]Port) []Port) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.views[networkID]
	if !ok {
		return
	}
	b.revision++
	b.views[networkID] = routerView{interfaces: change(slices.Clone(v.interfaces)), written: b.revision}
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

// setExternals replaces the external networks by name with those listed; a name several
// have is left out, so that its lookup says so.
func (b *routerBook) setExternals(nets []Network) {
	b.mu.Lock()
	defer b.mu.Unlock()
	count := map[string]int{}
	for _, n := range nets {
		count[n.Name]++
	}
	clear(b.externals)
	for _, n := range nets {
		if count[n.Name] == 1 {
			b.externals[n.Name] = n.ID
		}
	}
}

func (b *routerBook) forgetExternals() {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.externals)
}

func (b *routerBook) rev() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.revision
}

// refill replaces what the book knows with the project's routers and the interfaces of the
// networks listed, lists that started at revision since: a network changed through the
// Store after since keeps its view, the lists may predate that change. Without routers
// (no network carries RouterTag) it keeps only those later changes.
func (b *routerBook) refill(since uint64, networkIDs []string, routers []Router, interfaces []Port) {
	b.mu.Lock()
	defer b.mu.Unlock()
	byNetwork := map[string][]Port{}
	for _, p := range interfaces {
		byNetwork[p.NetworkID] = append(byNetwork[p.NetworkID], p)
	}
	oldViews, oldRouters := b.views, b.routers
	b.views, b.routers = map[string]routerView{}, map[string]Router{}
	for id, v := range oldViews {
		if v.written > since {
			b.views[id] = v
		}
	}
	for _, id := range networkIDs {
		if _, kept := b.views[id]; !kept {
			b.views[id] = routerView{interfaces: byNetwork[id]}
		}
	}
	for _, r := range routers {
		b.routers[r.ID] = r
	}
	if b.revision != since {
		// A router made or deleted during the lists: keep what the Store did since.
		for id, r := range oldRouters {
			if _, listed := b.routers[id]; !listed {
				b.routers[id] = r
			}
		}
	}
}
