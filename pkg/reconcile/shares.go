// The network's RBAC shares: the projects the spec lists, the policies Neutron holds, the
// calls that make them match, and what status records of them.
package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// projectID is the form of an OpenStack project ID the CRD admits in sharedWith.
var projectID = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)

// desiredSharing returns the projects spec shares the network with, checked as the CRD
// checks them, each once in the form Neutron compares them in (neutron.ProjectKey): a
// project spelt twice, which the CRD's set admits, is one share, and a share re-spelt is
// the policy it has.
func desiredSharing(spec samplecrdv1.NetworkSpec) ([]string, error) {
	if len(spec.SharedWith) > 16 {
		return nil, fmt.Errorf("sharedWith lists %d projects: at most 16", len(spec.SharedWith))
	}
	out := make([]string, 0, len(spec.SharedWith))
	for i, p := range spec.SharedWith {
		if !projectID.MatchString(string(p)) {
			return nil, fmt.Errorf("sharedWith item %q is not an OpenStack project ID (letters, digits, \"-\" and \"_\"; \"*\" is every project, which only an admin may share with)", string(p))
		}
		if slices.Contains(spec.SharedWith[:i], p) {
			return nil, fmt.Errorf("sharedWith lists project %s twice", p)
		}
		if project := neutron.ProjectKey(string(p)); !slices.Contains(out, project) {
			out = append(out, project)
		}
	}
	return out, nil
}

// diffShares compares the RBAC policies that share the network with the projects the
// spec lists: all of them made with a new network; else, once the store knows the
// policies, those missing made and the others deleted. The sharing mark goes on the
// network before the first policy and comes off after the last.
func diffShares(want neutron.Desired, got neutron.Observed, c *neutron.Changes) {
	if got.Network == nil {
		c.Share = slices.Clone(want.Network.SharedWith)
		return
	}
	if marked := neutron.SharingMarked(*got.Network); len(want.Network.SharedWith) > 0 && !marked {
		c.RetagNetwork = true
	} else if marked && len(want.Network.SharedWith) == 0 {
		c.UnmarkSharing = true
	}
	// The mark stays on until the policies are gone.
	c.Marks.Sharing = c.Marks.Sharing || neutron.SharingMarked(*got.Network)
	if got.SharesKnown {
		c.Share, c.Unshare = sharesToChange(want.Network.SharedWith, got.Shares)
	}
}

// managesSharing reports whether the network's RBAC policies are the controller's to
// compare with want: the spec shares it, or the tag says policies may be left.
func managesSharing(want neutron.DesiredNetwork, got *neutron.Network) bool {
	return len(want.SharedWith) > 0 || (got != nil && neutron.SharingMarked(*got))
}

// NeedsShares reports whether Diff needs the network's RBAC policies and got lacks them:
// the caller lists them (Store.Shares) first.
func NeedsShares(want neutron.Desired, got neutron.Observed) bool {
	return got.Network != nil && !got.SharesKnown && managesSharing(want.Network, got.Network)
}

// sharesToChange returns the projects of want that no policy shares with, and the policies
// to delete: those of projects want does not list, and a second one of a project. Projects
// compare as Neutron compares them, whatever their spelling here or in Neutron: a policy
// made in another is the same share, kept, and nothing is made for it again.
func sharesToChange(want []string, got []neutron.RBACPolicy) (share []string, unshare []neutron.RBACPolicy) {
	wanted := map[string]bool{}
	for _, project := range want {
		wanted[neutron.ProjectKey(project)] = true
	}
	seen := map[string]bool{}
	for _, p := range got {
		project := neutron.ProjectKey(p.TargetProject)
		if !wanted[project] || seen[project] {
			unshare = append(unshare, p)
			continue
		}
		seen[project] = true
	}
	for _, project := range want {
		if key := neutron.ProjectKey(project); !seen[key] {
			seen[key] = true
			share = append(share, project)
		}
	}
	return share, unshare
}

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

// setSharesStatus records the projects the network is shared with, and their policies.
func setSharesStatus(status *samplecrdv1.NetworkStatus, shares []neutron.RBACPolicy) {
	status.SharedWith = nil
	for _, p := range shares {
		status.SharedWith = append(status.SharedWith, samplecrdv1.ProjectShare{ProjectID: p.TargetProject, RBACPolicyID: p.ID})
	}
}
