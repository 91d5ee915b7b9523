package neutronstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// fillShares lists the RBAC policies of the project's networks that carry SharingTag,
// one call, when nets has any; else it costs nothing. The list also books the policies of
// the cluster's networks that carry no mark: a share whose create a controller sent
// before it died can land after its successor took the mark off, and the diff then
// deletes it like any policy the spec does not name.
func (s *Store) fillShares(ctx context.Context, since uint64, nets []neutron.Network) error {
	marked := markedNetworkIDs(nets, neutron.SharingTag)
	if len(marked) == 0 {
		s.shares.refill(since, nil, nil, policyNetwork)
		return nil
	}
	policies, err := s.driver.ListNetworkShares(ctx, neutron.Filter{ProjectID: s.projectID})
	if err != nil {
		return fmt.Errorf("listing the RBAC policies that share the project's networks: %w", err)
	}
	policies = neutron.InProject(policies, s.projectID)
	s.shares.refill(since, append(marked, unmarkedSharedIDs(nets, policies)...), policies, policyNetwork)
	return nil
}

// unmarkedSharedIDs returns the IDs of the networks of nets that carry no SharingTag and
// that a policy of policies shares.
func unmarkedSharedIDs(nets []neutron.Network, policies []neutron.RBACPolicy) []string {
	shared := map[string]bool{}
	for _, p := range policies {
		shared[p.ObjectID] = true
	}
	var ids []string
	for _, n := range nets {
		if shared[n.ID] && !slices.Contains(n.Tags, neutron.SharingTag) {
			ids = append(ids, n.ID)
		}
	}
	return ids
}

// Shares returns the RBAC policies that share networkID, from memory when it knows them,
// else listed (one call) and remembered.
func (s *Store) Shares(ctx context.Context, networkID string) ([]neutron.RBACPolicy, error) {
	if policies, known := s.shares.of(networkID); known {
		return policies, nil
	}
	policies, err := s.driver.ListNetworkShares(ctx, neutron.Filter{ProjectID: s.projectID, NetworkIDs: []string{networkID}})
	if err != nil {
		return nil, fmt.Errorf("listing the RBAC policies that share Neutron network %s: %w", networkID, err)
	}
	policies = slices.DeleteFunc(neutron.InProject(policies, s.projectID), func(p neutron.RBACPolicy) bool { return p.ObjectID != networkID })
	s.shares.set(networkID, policies)
	return slices.Clone(policies), nil
}

// Share shares networkID with project. A create whose outcome is unknown, or that
// Neutron refuses as a conflict (the policy exists already: an earlier create whose reply
// was lost), makes the store list the network's policies again.
func (s *Store) Share(ctx context.Context, networkID, project string) (neutron.RBACPolicy, error) {
	created, err := s.driver.ShareNetwork(ctx, neutron.NewShareRequest(networkID, project))
	if err != nil {
		if outcomeUnknown(err) || neutron.KindOf(err) == neutron.KindConflict {
			s.shares.forget(networkID)
		}
		s.forgetIfGone(err, networkID)
		return neutron.RBACPolicy{}, err
	}
	s.shares.update(networkID, func(ps []neutron.RBACPolicy) []neutron.RBACPolicy {
		// A fill whose list ran between the create and its reply has the policy already.
		if slices.ContainsFunc(ps, func(p neutron.RBACPolicy) bool { return p.ID == created.ID }) {
			return ps
		}
		return append(ps, created)
	})
	return created, nil
}

// Unshare deletes the RBAC policy p. Already gone counts as done.
func (s *Store) Unshare(ctx context.Context, p neutron.RBACPolicy) error {
	if err := s.driver.DeleteRBACPolicy(ctx, p.ID); err != nil {
		return err
	}
	s.shares.update(p.ObjectID, func(ps []neutron.RBACPolicy) []neutron.RBACPolicy {
		return slices.DeleteFunc(ps, func(q neutron.RBACPolicy) bool { return q.ID == p.ID })
	})
	return nil
}

func policyNetwork(p neutron.RBACPolicy) string { return p.ObjectID }
