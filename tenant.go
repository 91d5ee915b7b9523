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

// tenantOf returns the project a Network's resources belong in and the store that reaches
// it with the Network's credentials. Credentials that now lead to another project than
// the one its resources are in are refused before any Neutron call: following them would
// create everything again in the new project and leave the old resources behind.
func (c *Controller) tenantOf(ctx context.Context, network *samplecrdv1.Network) (tenancy.Tenant, error) {
	tenant, err := c.tenants.Resolve(ctx, cache.MetaObjectToName(network), network.Spec.CloudCredentialsRef)
	if err != nil {
		return tenancy.Tenant{}, err
	}
	if pinned, ok := c.pinnedProject(network); ok && pinned != tenant.ProjectID {
		return tenancy.Tenant{}, &tenancy.Error{Reason: samplecrdv1.ReasonCredentialsProjectChanged, Message: fmt.Sprintf(
			"%s now lead to project %s, but this Network's Neutron resources are in project %s (status.projectID); "+
				"point spec.cloudCredentialsRef at credentials of project %s again: nothing is done in the other project",
			credentialsOf(network), orNone(tenant.ProjectID), orNone(pinned), orNone(pinned))}
	}
	return tenant, nil
}

// pinnedProject returns the project the Network's resources were created in, if any
// were: status.projectID, or the controller's own project for a Network whose status
// names a network but no project (realised before projects were recorded, or in a
// Neutron without authentication).
func (c *Controller) pinnedProject(network *samplecrdv1.Network) (string, bool) {
	switch {
	case network.Status.ProjectID != "":
		return network.Status.ProjectID, true
	case network.Status.NetworkID != "":
		return c.tenants.OwnProjectID(), true
	}
	return "", false
}

// recordProject writes the Network's project into its status before anything is created
// in it, so that a later change of credentials can be checked against it even if this
// process dies right after the create. A Network with nothing in Neutron yet is marked
// Reconciling in the same write: its create follows, and needs no write of its own.
func (c *Controller) recordProject(ctx context.Context, network *samplecrdv1.Network, projectID string) (*samplecrdv1.Network, error) {
	if projectID == "" || network.Status.ProjectID == projectID {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Status.ProjectID = projectID
	if !network.IsImported() && network.Status.NetworkID == "" && !isReconciling(network) {
		reason, message := progressOf(neutron.Changes{CreateNetwork: true})
		updated.Status.ObservedGeneration = network.Generation
		setReconciling(&updated.Status, network.Generation, reason, message)
	}
	updated, err := c.client.SamplecrdV1().Networks(network.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, fmt.Errorf("recording project %s in the status of Network %s/%s: %w", projectID, network.Namespace, network.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Recorded the Network's OpenStack project", "projectID", projectID)
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
