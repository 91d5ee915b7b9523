package scope

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// Informers are the informers of one resource that together cover the watched namespaces:
// one for all namespaces, or one per namespace.
type Informers struct {
	byNamespace map[string]cache.SharedIndexInformer
	// empty answers for a namespace that is not watched.
	empty cache.Indexer
}

// NewInformers makes, with newInformer, one informer for all namespaces or one for each of
// namespaces.
func NewInformers(namespaces Namespaces, newInformer func(namespace string) cache.SharedIndexInformer) *Informers {
	if namespaces.All() {
		return Single(newInformer(metav1.NamespaceAll))
	}
	s := &Informers{byNamespace: map[string]cache.SharedIndexInformer{}, empty: emptyIndexer()}
	for _, ns := range namespaces {
		s.byNamespace[ns] = newInformer(ns)
	}
	return s
}

// Single wraps one informer of all namespaces.
func Single(informer cache.SharedIndexInformer) *Informers {
	return &Informers{byNamespace: map[string]cache.SharedIndexInformer{metav1.NamespaceAll: informer}, empty: emptyIndexer()}
}

func emptyIndexer() cache.Indexer {
	return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

// Indexer returns the cache that holds namespace's objects; for a namespace not watched,
// one that is always empty.
func (s *Informers) Indexer(namespace string) cache.Indexer {
	if i, ok := s.byNamespace[metav1.NamespaceAll]; ok {
		return i.GetIndexer()
	}
	if i, ok := s.byNamespace[namespace]; ok {
		return i.GetIndexer()
	}
	return s.empty
}

// List returns every cached object of every watched namespace.
func (s *Informers) List() []any {
	var out []any
	for _, i := range s.byNamespace {
		out = append(out, i.GetIndexer().List()...)
	}
	return out
}

// ByIndex returns the cached objects of every watched namespace whose index values
// include value.
func (s *Informers) ByIndex(index, value string) ([]any, error) {
	var out []any
	for ns, i := range s.byNamespace {
		objs, err := i.GetIndexer().ByIndex(index, value)
		if err != nil {
			return nil, fmt.Errorf("reading index %s of the informer of %s: %w", index, nameOf(ns), err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

// HasSynced reports whether every informer has synced.
func (s *Informers) HasSynced() bool {
	for _, i := range s.byNamespace {
		if !i.HasSynced() {
			return false
		}
	}
	return true
}

// AddEventHandler hands every informer's events to handler.
func (s *Informers) AddEventHandler(handler cache.ResourceEventHandler) error {
	for ns, i := range s.byNamespace {
		if _, err := i.AddEventHandler(handler); err != nil {
			return fmt.Errorf("adding an event handler to the informer of %s: %w", nameOf(ns), err)
		}
	}
	return nil
}

// AddIndexers adds indexers to every informer; only before Run.
func (s *Informers) AddIndexers(indexers cache.Indexers) error {
	for ns, i := range s.byNamespace {
		if err := i.AddIndexers(indexers); err != nil {
			return fmt.Errorf("adding indexers to the informer of %s: %w", nameOf(ns), err)
		}
	}
	return nil
}

// SetTransform sets transform on every informer; only before Run.
func (s *Informers) SetTransform(transform cache.TransformFunc) error {
	for ns, i := range s.byNamespace {
		if err := i.SetTransform(transform); err != nil {
			return fmt.Errorf("setting the transform of the informer of %s: %w", nameOf(ns), err)
		}
	}
	return nil
}

// Run starts every informer; they stop when ctx is done.
func (s *Informers) Run(ctx context.Context) {
	for _, i := range s.byNamespace {
		go i.RunWithContext(ctx)
	}
}

func nameOf(namespace string) string {
	if namespace == metav1.NamespaceAll {
		return "all namespaces"
	}
	return "namespace " + namespace
}
