package neutronstore

import (
	"slices"
	"sync"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// networkBook is a memory of things per network that the Store knows only for some
// networks: the RBAC policies of shared networks, the router interfaces of routed ones. A
// network it has no entry for is unknown, one with an empty entry has none. Safe for
// concurrent use.
type networkBook[T any] struct {
	mu       sync.Mutex
	revision uint64
	networks map[string]bookEntry[T]
}

type bookEntry[T any] struct {
	items []T
	// written is the revision of the last change through the Store.
	written uint64
}

func newNetworkBook[T any]() *networkBook[T] {
	return &networkBook[T]{networks: map[string]bookEntry[T]{}}
}

// of returns what the book has of networkID, and whether it knows it.
func (b *networkBook[T]) of(networkID string) ([]T, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.networks[networkID]
	return slices.Clone(e.items), ok
}

func (b *networkBook[T]) set(networkID string, items []T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	b.networks[networkID] = bookEntry[T]{items: items, written: b.revision}
}

// update changes what the book has of networkID, if it knows it.
func (b *networkBook[T]) update(networkID string, change func([]T) []T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.networks[networkID]
	if !ok {
		return
	}
	b.revision++
	b.networks[networkID] = bookEntry[T]{items: change(slices.Clone(e.items)), written: b.revision}
}

func (b *networkBook[T]) forget(networkID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	delete(b.networks, networkID)
}

// bump counts a change made through the Store to something the book's entries go with,
// and returns its revision.
func (b *networkBook[T]) bump() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	return b.revision
}

func (b *networkBook[T]) rev() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.revision
}

// refill replaces what the book knows with a list that started at revision since, of the
// networks networkIDs: a network changed through the Store after since keeps what it has,
// the list may predate that change. networkOf says which network an item is of.
func (b *networkBook[T]) refill(since uint64, networkIDs []string, listed []T, networkOf func(T) string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	byNetwork := map[string][]T{}
	for _, item := range listed {
		byNetwork[networkOf(item)] = append(byNetwork[networkOf(item)], item)
	}
	old := b.networks
	b.networks = make(map[string]bookEntry[T], len(networkIDs))
	for id, e := range old {
		if e.written > since {
			b.networks[id] = e
		}
	}
	for _, id := range networkIDs {
		if _, kept := b.networks[id]; !kept {
			b.networks[id] = bookEntry[T]{items: byNetwork[id]}
		}
	}
}

// markedNetworkIDs returns the IDs of the networks of nets that carry tag.
func markedNetworkIDs(nets []neutron.Network, tag string) []string {
	var ids []string
	for _, n := range nets {
		if slices.Contains(n.Tags, tag) {
			ids = append(ids, n.ID)
		}
	}
	return ids
}
