package reconcile

import (
	"context"
	"fmt"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// tenantOf returns the Place a Network's resources belong in and the store that reaches
// it with the Network's credentials. Credentials that now lead to another project, or
// another region, than the one its resources are in are refused before any Neutron call:
// following them would create everything again there and leave the old resources behind.
func (r *Reconciler) tenantOf(ctx context.Context, network *samplecrdv1.Network) (registry.Tenant, error) {
	src, err := r.sourceOf(network)
	if err != nil {
		return registry.Tenant{}, err
	}
	return r.tenantAt(ctx, network, src)
}

// tenantAt is tenantOf with the credentials in src (nil for the controller's own cloud).
func (r *Reconciler) tenantAt(ctx context.Context, network *samplecrdv1.Network, src *registry.Source) (registry.Tenant, error) {
	tenant, err := r.tenants.Resolve(ctx, cache.MetaObjectToName(network), src)
	if err != nil {
		return registry.Tenant{}, err
	}
	pinned, ok := pinnedPlace(network, r.tenants.OwnPlace())
	switch {
	case !ok:
	case pinned.ProjectID != tenant.Place.ProjectID:
		return registry.Tenant{}, &registry.Error{Reason: samplecrdv1.ReasonCredentialsProjectChanged, Message: fmt.Sprintf(
			"%s now lead to project %s, but this Network's Neutron resources are in project %s (%s); "+
				"point spec.cloudCredentialsRef at credentials of project %s again: nothing is done in the other project",
			credentialsOf(network), orNone(tenant.Place.ProjectID), orNone(pinned.ProjectID), pinnedBy(network), orNone(pinned.ProjectID))}
	case pinned.Region != "" && pinned.Region != tenant.Place.Region:
		return registry.Tenant{}, &registry.Error{Reason: samplecrdv1.ReasonCredentialsRegionChanged, Message: fmt.Sprintf(
			"%s now lead to region %q, but this Network's Neutron resources are in region %q (status.region); "+
				"point spec.cloudCredentialsRef at credentials of region %q again: nothing is done in the other region",
			credentialsOf(network), tenant.Place.Region, pinned.Region, pinned.Region)}
	}
	return tenant, nil
}

// pinnedPlace returns the project and region the Network's resources were created in,
// if any were: status.projectID and status.region, or the controller's own for a Network
// whose status names a network but no project (realised before projects were recorded,
// or in a Neutron without authentication), or the project its finalizer's write pinned
// (samplecrdv1.AnnotationProject) for one whose first pass has not written its status.
// A region of "" is not pinned: the status was written before regions were recorded, and
// the next write records it.
func pinnedPlace(network *samplecrdv1.Network, own neutron.Place) (neutron.Place, bool) {
	switch {
	case network.Status.ProjectID != "":
		return neutron.Place{ProjectID: network.Status.ProjectID, Region: network.Status.Region}, true
	case network.Status.NetworkID != "":
		return neutron.Place{ProjectID: own.ProjectID, Region: network.Status.Region}, true
	}
	if project := network.Annotations[samplecrdv1.AnnotationProject]; project != "" {
		return neutron.Place{ProjectID: project}, true
	}
	return neutron.Place{}, false
}

// pinnedBy names what pinned the Network's project, for messages.
func pinnedBy(network *samplecrdv1.Network) string {
	if network.Status.ProjectID == "" && network.Status.NetworkID == "" {
		return "annotation " + samplecrdv1.AnnotationProject
	}
	return "status.projectID"
}

// PinnedTo reports whether the Network's resources are in place: its credentials still
// lead where they were made (own is the controller's own cloud's place).
func PinnedTo(network *samplecrdv1.Network, place, own neutron.Place) bool {
	pinned, ok := pinnedPlace(network, own)
	return ok && pinned.ProjectID == place.ProjectID && (pinned.Region == "" || pinned.Region == place.Region)
}

// credentialsOf names the credentials a Network uses, for messages.
func credentialsOf(network *samplecrdv1.Network) string {
	switch ref := network.Spec.CloudCredentialsRef; {
	case ref.Delegated():
		return fmt.Sprintf("the credentials of ClusterIdentity %s", ref.ClusterIdentity)
	case ref != nil:
		return fmt.Sprintf("the credentials of cloud %q in Secret %s/%s", ref.CloudName, network.Namespace, ref.SecretName)
	}
	return "the controller's own credentials"
}

func orNone(projectID string) string {
	if projectID == "" {
		return "(none: Neutron without authentication)"
	}
	return projectID
}

// resolve returns the tenant the Network's credentials reach, wherever they are, without
// the checks against status: an import's place may move.
func (r *Reconciler) resolve(ctx context.Context, network *samplecrdv1.Network) (registry.Tenant, error) {
	src, err := r.sourceOf(network)
	if err != nil {
		return registry.Tenant{}, err
	}
	return r.tenants.Resolve(ctx, cache.MetaObjectToName(network), src)
}
