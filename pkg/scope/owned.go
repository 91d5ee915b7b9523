package scope

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/samplecrd/network-controller/pkg/shard"
)

// Owned is, at one moment, the namespaces this replica acts for where no Network in its
// cache tells it to: it collects their orphans and takes the finalizer off their Secrets
// when its cache holds no Network that needs them. Without shards that is the watched
// namespaces; with shards, those of the shards whose informers have synced here.
type Owned struct {
	namespaces Namespaces
	// count is the number of shards, 0 without; held maps each shard held to the
	// generation of its holding: a shard given up and taken again is another holding.
	count int
	held  map[int]uint64
}

// Owns reports whether namespace is owned.
func (o Owned) Owns(namespace string) bool {
	if !o.namespaces.Contains(namespace) {
		return false
	}
	if o.count == 0 {
		return true
	}
	_, ok := o.held[shard.Of(namespace, o.count).Index]
	return ok
}

// All reports whether every namespace is owned: all are watched, without shards.
func (o Owned) All() bool { return o.count == 0 && o.namespaces.All() }

// None reports whether no namespace is owned: a replica that holds no shard.
func (o Owned) None() bool { return o.count > 0 && len(o.held) == 0 }

// Within is what o and later both own in the same holding: what a reader of the cache
// could rely on from o's moment to later's. A shard given up in between, or given up and
// taken again (its cache emptied and filled anew), is not owned.
func (o Owned) Within(later Owned) Owned {
	out := Owned{namespaces: o.namespaces, count: o.count, held: map[int]uint64{}}
	for i, gen := range o.held {
		if later.held[i] == gen {
			out.held[i] = gen
		}
	}
	return out
}

// String names what is owned for the logs: the watched namespaces, and the shards held.
func (o Owned) String() string {
	if o.count == 0 {
		return o.namespaces.String()
	}
	var held []string
	for _, i := range slices.Sorted(maps.Keys(o.held)) {
		held = append(held, shard.Shard{Index: i, Count: o.count}.String())
	}
	return "shards " + strings.Join(held, ",") + " of " + o.namespaces.String()
}

// Ownership tells the Owned of each moment; it is safe for concurrent use.
type Ownership struct {
	namespaces Namespaces
	count      int

	mu   sync.Mutex
	held map[int]uint64
	gen  uint64
}

// NewOwnership returns the ownership of the watched namespaces, cut into count shards
// (0 or 1: no shards, every watched namespace owned at once).
func NewOwnership(namespaces Namespaces, count int) *Ownership {
	if count <= 1 {
		count = 0
	}
	return &Ownership{namespaces: namespaces, count: count, held: map[int]uint64{}}
}

// Now returns what is owned now.
func (o *Ownership) Now() Owned {
	o.mu.Lock()
	defer o.mu.Unlock()
	return Owned{namespaces: o.namespaces, count: o.count, held: maps.Clone(o.held)}
}

// Hold makes the namespaces of s owned: call it once s's informers have synced.
func (o *Ownership) Hold(s shard.Shard) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.gen++
	o.held[s.Index] = o.gen
}

// Release makes the namespaces of s owned no more: call it before s's informers stop.
func (o *Ownership) Release(s shard.Shard) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.held, s.Index)
}
