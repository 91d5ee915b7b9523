package main

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// finalize removes the Neutron side of a Network being deleted, then its finalizer.
// Neutron deletes a network's subnets with it, so this is one DELETE per network.
func (c *Controller) finalize(ctx context.Context, network *samplecrdv1.Network) error {
	if !slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return nil
	}
	if neverCreated(network) {
		// Its credentials never worked, or it was deleted before its first create:
		// nothing to delete, and no credentials needed to find that out.
		if removed, err := c.removeFinalizer(ctx, network); !removed {
			return err
		}
		klog.FromContext(ctx).Info("Removed finalizer: nothing was created in Neutron")
		return nil
	}
	tenant, err := c.tenantOf(ctx, network)
	if err != nil {
		return c.recordFailure(ctx, network, "", err)
	}
	deleted, err := tenant.Store.DeleteOwned(ctx, neutronOwner(network, c.config.ClusterID), recordedOf(network))
	if err != nil {
		return c.recordFailure(ctx, network, "", err)
	}
	klog.FromContext(ctx).V(2).Info("Deleted Neutron networks with their subnets", "networkIDs", deleted)
	if removed, err := c.removeFinalizer(ctx, network); !removed {
		return err
	}
	klog.FromContext(ctx).Info("Deleted Neutron resources and removed finalizer")
	c.recorder.Event(network, corev1.EventTypeNormal, reasonNeutronDeleted, "Deleted the Neutron network and its subnet")
	return nil
}

// neverCreated reports whether a Network with its own credentials never reached the point
// of creating anything: its project is recorded before the first create.
func neverCreated(network *samplecrdv1.Network) bool {
	return network.Spec.CloudCredentialsRef != nil && network.Status.ProjectID == "" && network.Status.NetworkID == ""
}
