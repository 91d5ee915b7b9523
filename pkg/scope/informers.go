package scope

import (
	"context"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/shard"
)

// Informers are the informers of one resource that together cover the watched namespaces:
// one for all namespaces, or one per namespace. With shards they come and go with the
// shards held (Start, Stop): one per shard when every namespace is watched, else one per
// watched namespace of the shard.
type Informers struct {
	namespaces Namespaces
	// shards is the number of shards, 0 without.
	shards int

	mu sync.RWMutex
	// byKey holds the informers by namespace ("" for all) or, with shards and every
	// namespace watched, by shard.
	byKey map[string]cache.SharedIndexInformer
	stops map[string]context.CancelFunc
	// What the informers are set up with, given to those Start adds later too.
	handlers  []cache.ResourceEventHandler
	indexers  cache.Indexers
	transform cache.TransformFunc
	// empty answers for a namespace that is not watched.
	empty cache.Indexer
}

// NewInformers makes, with newInformer, one informer for all namespaces or one for each of
// namespaces.
func NewInformers(namespaces Namespaces, newInformer func(namespace string) cache.SharedIndexInformer) *Informers {
	if namespaces.All() {
		return Single(newInformer(metav1.NamespaceAll))
	}
	s := newSet(namespaces, 0)
	for _, ns := range namespaces {
		s.byKey[ns] = newInformer(ns)
	}
	return s
}

// Single wraps one informer of all namespaces.
func Single(informer cache.SharedIndexInformer) *Informers {
	s := newSet(nil, 0)
	s.byKey[metav1.NamespaceAll] = informer
	return s
}

// NewShardedInformers returns a set without informers, of the watched namespaces cut into
// count shards, to which Start adds the informers of each shard taken.
func NewShardedInformers(namespaces Namespaces, count int) *Informers {
	return newSet(namespaces, count)
}

func newSet(namespaces Namespaces, shards int) *Informers {
	return &Informers{namespaces: namespaces, shards: shards, byKey: map[string]cache.SharedIndexInformer{},
		stops: map[string]context.CancelFunc{}, indexers: cache.Indexers{}, empty: emptyIndexer()}
}

func emptyIndexer() cache.Indexer {
	return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

// ShardKeys are the keys of the informers of shard s: the shard's own when every
// namespace is watched, else each watched namespace in it.
func (s *Informers) ShardKeys(sh shard.Shard) []string {
	if s.namespaces.All() {
		return []string{sh.String()}
	}
	var out []string
	for _, ns := range s.namespaces {
		if sh.Holds(ns) {
			out = append(out, ns)
		}
	}
	return out
}

// keyOf is the key of the informer that holds namespace's objects.
func (s *Informers) keyOf(namespace string) string {
	switch {
	case s.shards > 0 && s.namespaces.All():
		return shard.Of(namespace, s.shards).String()
	case s.namespaces.All():
		return metav1.NamespaceAll
	}
	return namespace
}

// Indexer returns the cache that holds namespace's objects; for a namespace not watched
// (or, with shards, of a shard not held), one that is always empty.
func (s *Informers) Indexer(namespace string) cache.Indexer {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if i, ok := s.byKey[s.keyOf(namespace)]; ok {
		return i.GetIndexer()
	}
	return s.empty
}

// List returns every cached object of every watched namespace.
func (s *Informers) List() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []any
	for _, i := range s.byKey {
		out = append(out, i.GetIndexer().List()...)
	}
	return out
}

// ByIndex returns the cached objects whose index values include value, across every
// informer.
func (s *Informers) ByIndex(index, value string) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []any
	for key, i := range s.byKey {
		objs, err := i.GetIndexer().ByIndex(index, value)
		if err != nil {
			return nil, fmt.Errorf("reading index %s of the informer of %s: %w", index, s.nameOf(key), err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

// HasSynced reports whether every informer has synced.
func (s *Informers) HasSynced() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, i := range s.byKey {
		if !i.HasSynced() {
			return false
		}
	}
	return true
}

// AddEventHandler adds handler to every informer, and to those Start adds later.
func (s *Informers) AddEventHandler(handler cache.ResourceEventHandler) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers = append(s.handlers, handler)
	for key, i := range s.byKey {
		if _, err := i.AddEventHandler(handler); err != nil {
			return fmt.Errorf("adding an event handler to the informer of %s: %w", s.nameOf(key), err)
		}
	}
	return nil
}

// AddIndexers adds indexers to every informer, and to those Start adds later.
func (s *Informers) AddIndexers(indexers cache.Indexers) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, f := range indexers {
		s.indexers[name] = f
	}
	for key, i := range s.byKey {
		if err := i.AddIndexers(indexers); err != nil {
			return fmt.Errorf("adding indexers to the informer of %s: %w", s.nameOf(key), err)
		}
	}
	return nil
}

// SetTransform sets the transform of every informer, and of those Start adds later.
func (s *Informers) SetTransform(transform cache.TransformFunc) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transform = transform
	for key, i := range s.byKey {
		if err := i.SetTransform(transform); err != nil {
			return fmt.Errorf("setting the transform of the informer of %s: %w", s.nameOf(key), err)
		}
	}
	return nil
}

// Run runs every informer until ctx is done.
func (s *Informers) Run(ctx context.Context) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, i := range s.byKey {
		go i.RunWithContext(ctx)
	}
}

// Start sets informer up as the others (handlers, indexers, transform), runs it under key
// until Stop or ctx is done, and returns once it has synced.
func (s *Informers) Start(ctx context.Context, key string, informer cache.SharedIndexInformer) error {
	s.mu.Lock()
	if _, ok := s.byKey[key]; ok {
		s.mu.Unlock()
		return fmt.Errorf("the informer of %s runs already", s.nameOf(key))
	}
	if err := s.setUp(informer); err != nil {
		s.mu.Unlock()
		return fmt.Errorf("setting up the informer of %s: %w", s.nameOf(key), err)
	}
	runCtx, stop := context.WithCancel(ctx)
	s.byKey[key], s.stops[key] = informer, stop
	s.mu.Unlock()
	go informer.RunWithContext(runCtx)
	if !cache.WaitForCacheSync(runCtx.Done(), informer.HasSynced) {
		return fmt.Errorf("the informer of %s stopped before it synced", s.nameOf(key))
	}
	return nil
}

func (s *Informers) setUp(informer cache.SharedIndexInformer) error {
	if s.transform != nil {
		if err := informer.SetTransform(s.transform); err != nil {
			return err
		}
	}
	if len(s.indexers) > 0 {
		if err := informer.AddIndexers(s.indexers); err != nil {
			return err
		}
	}
	for _, h := range s.handlers {
		if _, err := informer.AddEventHandler(h); err != nil {
			return err
		}
	}
	return nil
}

// Stop stops the informer of key and forgets it and its cache, telling no handler: the
// objects are not gone, only out of this replica's sight. It returns how many objects the
// cache held.
func (s *Informers) Stop(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.byKey[key]
	if !ok {
		return 0
	}
	s.stops[key]()
	delete(s.byKey, key)
	delete(s.stops, key)
	return len(i.GetIndexer().ListKeys())
}

// Len returns how many objects the cache of key's informer holds; 0 when none runs.
func (s *Informers) Len(key string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if i, ok := s.byKey[key]; ok {
		return len(i.GetIndexer().ListKeys())
	}
	return 0
}

// nameOf names the informer of key in errors.
func (s *Informers) nameOf(key string) string {
	switch {
	case key == metav1.NamespaceAll:
		return "all namespaces"
	case s.shards > 0 && s.namespaces.All():
		return "shard " + key
	}
	return "namespace " + key
}
