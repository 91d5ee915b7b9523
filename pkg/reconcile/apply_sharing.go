package reconcile

import (
	"cmp"
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// applySharing makes the RBAC policies of network networkID those the spec asks for: the
// policies of projects no longer listed are deleted first, then those missing are made.
// It returns the policies that share it, by project, as they are now.
func (p *pass) applySharing(ctx context.Context, networkID string, shares []neutron.RBACPolicy) ([]neutron.RBACPolicy, error) {
	logger := klog.FromContext(ctx)
	for _, policy := range p.changes.Unshare {
		if err := p.store.Unshare(ctx, policy); err != nil {
			return sortedShares(shares), err
		}
		shares = slices.DeleteFunc(shares, func(s neutron.RBACPolicy) bool { return s.ID == policy.ID })
		logger.Info("Stopped sharing the Neutron network with a project", "networkID", networkID, "project", policy.TargetProject, "rbacPolicyID", policy.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkUnshared,
			"Stopped sharing Neutron network %s with project %s (deleted RBAC policy %s)", networkID, policy.TargetProject, policy.ID)
	}
	for _, project := range p.changes.Share {
		policy, err := p.store.Share(ctx, networkID, project)
		if err != nil {
			return sortedShares(shares), err
		}
		shares = append(shares, policy)
		logger.Info("Shared the Neutron network with a project", "networkID", networkID, "project", project, "rbacPolicyID", policy.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkShared,
			"Shared Neutron network %s with project %s (RBAC policy %s)", networkID, project, policy.ID)
	}
	return sortedShares(shares), nil
}

func sortedShares(shares []neutron.RBACPolicy) []neutron.RBACPolicy {
	return slices.SortedFunc(slices.Values(shares), func(a, b neutron.RBACPolicy) int {
		return cmp.Or(cmp.Compare(a.TargetProject, b.TargetProject), cmp.Compare(a.ID, b.ID))
	})
}
