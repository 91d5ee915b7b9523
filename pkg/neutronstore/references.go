package neutronstore

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// referenceBook remembers what the references of this project's Networks resolved to, by
// collection and Ref, so that a pass over an unchanged Network asks Neutron nothing. An
// answer is forgotten when a call that used it failed (Forget): the resource may be gone.
type referenceBook struct {
	mu       sync.Mutex
	resolved map[referenceKey]string
}

type referenceKey struct {
	path string
	ref  neutron.Ref
}

// Resolve returns the ID of the one resource of c that ref names and the store's project
// can see: its own, or one Neutron shares with it; by name, the project's own when it has
// one of that name. An ID is looked up too, so that one the project cannot see is refused
// before any request carries it. None, or several, is a *neutron.ReferenceError.
func (s *Store) Resolve(ctx context.Context, c neutron.Collection, ref neutron.Ref) (string, error) {
	if id, ok := s.CachedResolve(c, ref); ok {
		return id, nil
	}
	filter := neutron.Filter{Name: ref.Name}
	if ref.ID != "" {
		filter = neutron.Filter{IDs: []string{ref.ID}}
	}
	found, err := s.driver.ListNamed(ctx, c, filter)
	if err != nil {
		return "", fmt.Errorf("looking up %s %s: %w", c.Noun, ref, err)
	}
	// Only an exact match counts, whatever filters a Neutron applied.
	found = neutron.OwnFirst(slices.DeleteFunc(found, func(n neutron.Named) bool {
		return (ref.ID != "" && n.ID != ref.ID) || (ref.ID == "" && n.Name != ref.Name)
	}), s.projectID)
	if len(found) != 1 {
		return "", &neutron.ReferenceError{Reference: neutron.Reference{Collection: c, Ref: ref}, ProjectID: s.projectID, Found: len(found)}
	}
	s.refs.mu.Lock()
	defer s.refs.mu.Unlock()
	if s.refs.resolved == nil {
		s.refs.resolved = map[referenceKey]string{}
	}
	s.refs.resolved[referenceKey{c.Path, ref}] = found[0].ID
	return found[0].ID, nil
}

// CachedResolve returns what ref resolved to when the store looked it up last, asking no
// one.
func (s *Store) CachedResolve(c neutron.Collection, ref neutron.Ref) (string, bool) {
	s.refs.mu.Lock()
	defer s.refs.mu.Unlock()
	id, ok := s.refs.resolved[referenceKey{c.Path, ref}]
	return id, ok
}

// Forget drops what ref resolved to, so that the next Resolve looks it up again.
func (s *Store) Forget(c neutron.Collection, ref neutron.Ref) {
	s.refs.mu.Lock()
	defer s.refs.mu.Unlock()
	delete(s.refs.resolved, referenceKey{c.Path, ref})
}
