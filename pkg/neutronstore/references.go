package neutronstore

import (
	"context"
	"fmt"
	"sync"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// referenceBook remembers what the references of this project's Networks resolved to, by
// collection and Ref, so that a pass over an unchanged Network asks Neutron nothing. An
// answer is forgotten when a call that used it failed (Forget): the resource may be gone.
type referenceBook struct {
	mu       sync.Mutex
	resolved map[referenceKey]neutron.Named
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
	found, err := s.ResolveNamed(ctx, c, ref)
	return found.ID, err
}

// ResolveNamed is Resolve, returning the resource's name too: a grant may name it.
func (s *Store) ResolveNamed(ctx context.Context, c neutron.Collection, ref neutron.Ref) (neutron.Named, error) {
	s.refs.mu.Lock()
	cached, ok := s.refs.resolved[referenceKey{c.Path, ref}]
	s.refs.mu.Unlock()
	if ok {
		return cached, nil
	}
	listNamed := func(ctx context.Context, f neutron.Filter) ([]neutron.Named, error) {
		return s.driver.ListNamed(ctx, c, f)
	}
	found, err := findByRef(ctx, listNamed, refQuery{ref: ref}, s.projectID)
	if err != nil {
		return neutron.Named{}, fmt.Errorf("looking up %s %s: %w", c.Noun, ref, err)
	}
	if len(found) != 1 {
		return neutron.Named{}, &neutron.ReferenceError{Reference: neutron.Reference{Collection: c, Ref: ref}, ProjectID: s.projectID, Found: len(found)}
	}
	s.refs.mu.Lock()
	defer s.refs.mu.Unlock()
	if s.refs.resolved == nil {
		s.refs.resolved = map[referenceKey]neutron.Named{}
	}
	s.refs.resolved[referenceKey{c.Path, ref}] = found[0]
	return found[0], nil
}

// CachedResolve returns what ref resolved to when the store looked it up last, asking no
// one.
func (s *Store) CachedResolve(c neutron.Collection, ref neutron.Ref) (string, bool) {
	s.refs.mu.Lock()
	defer s.refs.mu.Unlock()
	found, ok := s.refs.resolved[referenceKey{c.Path, ref}]
	return found.ID, ok
}

// Forget drops what ref resolved to, so that the next Resolve looks it up again.
func (s *Store) Forget(c neutron.Collection, ref neutron.Ref) {
	s.refs.mu.Lock()
	defer s.refs.mu.Unlock()
	delete(s.refs.resolved, referenceKey{c.Path, ref})
}

// DefaultQoSPolicy returns the ID of projectID's default QoS policy (the store's project
// when projectID is empty), "" when it has none: what Neutron gives a network made without
// a policy. Never remembered: the operator may change it at any time, and only a pass
// that takes a policy off a network asks.
func (s *Store) DefaultQoSPolicy(ctx context.Context, projectID string) (string, error) {
	if projectID == "" {
		projectID = s.projectID
	}
	id, err := s.driver.DefaultQoSPolicy(ctx, projectID)
	if err != nil {
		return "", fmt.Errorf("looking up the default QoS policy of project %s: %w", projectID, err)
	}
	return id, nil
}
