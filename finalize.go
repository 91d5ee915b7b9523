package main

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// finalize removes the Neutron side of a Network being deleted, then its finalizer.
// Neutron deletes a network's subnets with it, so this is one DELETE per network.
func (c *Controller) finalize(ctx context.Context, network *samplecrdv1.Network) error {
	if !slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return nil
	}
	owner := c.ownerOf(network)
	ids, err := c.networksToDelete(ctx, network, owner)
	if err != nil {
		return c.recordFailure(ctx, network, "", err)
	}
	for _, id := range ids {
		if err := c.deleteNetwork(ctx, id); err != nil {
			return c.recordFailure(ctx, network, "", err)
		}
		klog.FromContext(ctx).V(2).Info("Deleted Neutron network and its subnet", "networkID", id)
	}
	c.index.SetAbsent(owner.UID)

	updated := network.DeepCopy()
	updated.Finalizers = slices.DeleteFunc(updated.Finalizers, func(f string) bool { return f == samplecrdv1.FinalizerName })
	_, err = c.client.SamplecrdV1().Networks(network.Namespace).Update(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("removing finalizer from Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	klog.FromContext(ctx).Info("Deleted Neutron resources and removed finalizer")
	c.recorder.Event(network, corev1.EventTypeNormal, reasonNeutronDeleted, "Deleted the Neutron network and its subnet")
	return nil
}

// networksToDelete returns the IDs of the owner's networks: those in the index and the one
// status names. Only when both have none, and the index cannot prove there is none, does it
// list by the owner's name, which finds a network whose create the index has not seen: one
// made after the last fill by a process that died before it could record it.
func (c *Controller) networksToDelete(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner) ([]string, error) {
	var ids []string
	for _, n := range c.index.Networks(owner.UID) {
		ids = append(ids, n.ID)
	}
	if id := network.Status.NetworkID; id != "" && !slices.Contains(ids, id) {
		ids = append(ids, id)
	}
	if len(ids) > 0 || c.index.Absent(owner.UID) {
		return ids, nil
	}
	found, err := neutron.OwnedNetworks(ctx, c.neutron, owner)
	if err != nil {
		return nil, err
	}
	for _, n := range found {
		ids = append(ids, n.ID)
	}
	return ids, nil
}

// deleteNetwork deletes one network of this cluster with its subnets and drops it from the
// index. Already gone counts as done.
func (c *Controller) deleteNetwork(ctx context.Context, id string) error {
	if err := c.neutron.DeleteNetwork(ctx, id); err != nil {
		return err
	}
	c.index.RemoveNetwork(id)
	return nil
}
