package main

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// tenantOf returns the Place a Network's resources belong in and the store that reaches
// it with the Network's credentials. Credentials that now lead to another project, or
// another region, than the one its resources are in are refused before any Neutron call:
// following them would create everything again there and leave the old resources behind.
func (c *Controller) tenantOf(ctx context.Context, network *samplecrdv1.Network) (tenancy.Tenant, error) {
	tenant, err := c.tenants.Resolve(ctx, cache.MetaObjectToName(network), network.Spec.CloudCredentialsRef)
	if err != nil {
		return tenancy.Tenant{}, err
	}
	pinned, ok := c.pinnedPlace(network)
	switch {
	case !ok:
	case pinned.ProjectID != tenant.Place.ProjectID:
		return tenancy.Tenant{}, &tenancy.Error{Reason: samplecrdv1.ReasonCredentialsProjectChanged, Message: fmt.Sprintf(
			"%s now lead to project %s, but this Network's Neutron resources are in project %s (status.projectID); "+
				"point spec.cloudCredentialsRef at credentials of project %s again: nothing is done in the other project",
			credentialsOf(network), orNone(tenant.Place.ProjectID), orNone(pinned.ProjectID), orNone(pinned.ProjectID))}
	case pinned.Region != "" && pinned.Region != tenant.Place.Region:
		return tenancy.Tenant{}, &tenancy.Error{Reason: samplecrdv1.ReasonCredentialsRegionChanged, Message: fmt.Sprintf(
			"%s now lead to region %q, but this Network's Neutron resources are in region %q (status.region); "+
				"point spec.cloudCredentialsRef at credentials of region %q again: nothing is done in the other region",
			credentialsOf(network), tenant.Place.Region, pinned.Region, pinned.Region)}
	}
	return tenant, nil
}

// pinnedPlace returns the project and region the Network's resources were created in,
// if any were: status.projectID and status.region, or the controller's own for a Network
// whose status names a network but no project (realised before projects were recorded,
// or in a Neutron without authentication). A region of "" is not pinned: the status was
// written before regions were recorded, and the next write records it.
func (c *Controller) pinnedPlace(network *samplecrdv1.Network) (neutron.Place, bool) {
	switch {
	case network.Status.ProjectID != "":
		return neutron.Place{ProjectID: network.Status.ProjectID, Region: network.Status.Region}, true
	case network.Status.NetworkID != "":
		own := c.tenants.OwnPlace()
		return neutron.Place{ProjectID: own.ProjectID, Region: network.Status.Region}, true
	}
	return neutron.Place{}, false
}

// recordProject writes the Network's project and region into its status before anything
// is created there, so that a later change of credentials can be checked against them
// even if this process dies right after the create. A Network with nothing in Neutron yet
// is marked Reconciling in the same write: its create follows, and needs no write of its
// own.
func (c *Controller) recordProject(ctx context.Context, network *samplecrdv1.Network, place neutron.Place) (*samplecrdv1.Network, error) {
	if place.ProjectID == "" || (network.Status.ProjectID == place.ProjectID && network.Status.Region == place.Region) {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Status.ProjectID, updated.Status.Region = place.ProjectID, place.Region
	if !network.IsImported() && network.Status.NetworkID == "" && !isReconciling(network) {
		reason, message := progressOf(neutron.Changes{CreateNetwork: true})
		updated.Status.ObservedGeneration = network.Generation
		setReconciling(&updated.Status, network.Generation, reason, message)
	}
	updated, err := c.client.SamplecrdV1().Networks(network.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, fmt.Errorf("recording project %s in the status of Network %s/%s: %w", place.ProjectID, network.Namespace, network.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Recorded the Network's OpenStack project", "projectID", place.ProjectID, "region", place.Region)
	return updated, nil
}

// credentialsOf names the credentials a Network uses, for messages.
func credentialsOf(network *samplecrdv1.Network) string {
	if ref := network.Spec.CloudCredentialsRef; ref != nil {
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
