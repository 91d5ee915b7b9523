package neutron

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// shareBook is the Store's memory of RBAC policies: per network, those that share it, for
// the networks it knows them of (see sharing.go). Safe for concurrent use.
type shareBook struct {
	mu       sync.Mutex
	revision uint64
	networks map[string]sharesOf
}

type sharesOf struct {
	policies []RBACPolicy
	// written is the revision of the last change through the Store.
	written uint64
}

func newShareBook() *shareBook { return &shareBook{networks: map[string]sharesOf{}} }

// of returns the policies that share networkID, and whether they are known.
func (b *shareBook) of(networkID string) ([]RBACPolicy, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.networks[networkID]
	return slices.Clone(e.policies), ok
}

func (b *shareBook) set(networkID string, policies []RBACPolicy) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	b.networks[networkID] = sharesOf{policies: policies, written: b.revision}
}

func (b *shareBook) update(networkID string, change func([]RBACPolicy) []RBACPolicy) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.networks[networkID]
	if !ok {
		return
	}
	b.revision++
	b.networks[networkID] = sharesOf{policies: change(e.policies), written: b.revision}
}

func (b *shareBook) forget(networkID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.revision++
	delete(b.networks, networkID)
}

func (b *shareBook) rev() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.revision
}

// refill replaces what the book knows with the policies of the networks listed, a list
// that started at revision since: a network changed through the Store after since keeps
// what it has, the list may predate that change.
func (b *shareBook) refill(since uint64, networkIDs []string, policies []RBACPolicy) {
	b.mu.Lock()
	defer b.mu.Unlock()
	byNetwork := map[string][]RBACPolicy{}
	for _, p := range policies {
		byNetwork[p.ObjectID] = append(byNetwork[p.ObjectID], p)
	}
	old := b.networks
	b.networks = make(map[string]sharesOf, len(networkIDs))
	for id, e := range old {
		if e.written > since {
			b.networks[id] = e
		}
	}
	for _, id := range networkIDs {
		if _, kept := b.networks[id]; !kept {
			b.networks[id] = sharesOf{policies: byNetwork[id]}
		}
	}
}

// fillShares lists the RBAC policies of the project's networks that carry SharingTag,
// one call, when nets has any; else it costs nothing.
func (s *Store) fillShares(ctx context.Context, since uint64, nets []Network) error {
	var marked []string
	for _, n := range nets {
		if SharingMarked(n) {
			marked = append(marked, n.ID)
		}
	}
	if len(marked) == 0 {
		s.shares.refill(since, nil, nil)
		return nil
	}
	policies, err := s.driver.ListNetworkShares(ctx, Filter{ProjectID: s.projectID})
	if err != nil {
		return fmt.Errorf("listing the RBAC policies that share the project's networks: %w", err)
	}
	s.shares.refill(since, marked, inProject(policies, s.projectID))
	return nil
}

// Shares returns the RBAC policies that share networkID, from memory when it knows them,
// else listed (one call) and remembered.
func (s *Store) Shares(ctx context.Context, networkID string) ([]RBACPolicy, error) {
	if policies, known := s.shares.of(networkID); known {
		return policies, nil
	}
	policies, err := s.driver.ListNetworkShares(ctx, Filter{ProjectID: s.projectID, NetworkIDs: []string{networkID}})
	if err != nil {
		return nil, fmt.Errorf("listing the RBAC policies that share Neutron network %s: %w", networkID, err)
	}
	policies = slices.DeleteFunc(inProject(policies, s.projectID), func(p RBACPolicy) bool { return p.ObjectID != networkID })
	s.shares.set(networkID, policies)
	return slices.Clone(policies), nil
}

// Share shares networkID with project. A create whose outcome is unknown, or that
// Neutron refuses as a conflict (the policy exists already: an earlier create whose reply
// was lost), makes the store list the network's policies again.
func (s *Store) Share(ctx context.Context, networkID, project string) (RBACPolicy, error) {
	created, err := s.driver.ShareNetwork(ctx, NewShareRequest(networkID, project))
	if err != nil {
		if outcomeUnknown(err) || KindOf(err) == KindConflict {
			s.shares.forget(networkID)
		}
		s.forgetIfGone(err, networkID)
		return RBACPolicy{}, err
	}
	s.shares.update(networkID, func(ps []RBACPolicy) []RBACPolicy { return append(ps, created) })
	return created, nil
}

// Unshare deletes the RBAC policy p. Already gone counts as done.
func (s *Store) Unshare(ctx context.Context, p RBACPolicy) error {
	if err := s.driver.DeleteRBACPolicy(ctx, p.ID); err != nil {
		return err
	}
	s.shares.update(p.ObjectID, func(ps []RBACPolicy) []RBACPolicy {
		return slices.DeleteFunc(ps, func(q RBACPolicy) bool { return q.ID == p.ID })
	})
	return nil
}
