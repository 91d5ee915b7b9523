package main

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// finalize removes the Neutron side of a Network being deleted, then its finalizer. It
// finds the resources by their ownership marks, not by status, so it also works for an
// object whose status was never written.
func (c *Controller) finalize(ctx context.Context, network *samplecrdv1.Network) error {
	if !slices.Contains(network.Finalizers, finalizerName) {
		return nil
	}
	if err := c.deleteOwned(ctx, c.ownerOf(network)); err != nil {
		return c.fail(ctx, network, err)
	}

	updated := network.DeepCopy()
	updated.Finalizers = slices.DeleteFunc(updated.Finalizers, func(f string) bool { return f == finalizerName })
	_, err := c.client.SamplecrdV1().Networks(network.Namespace).Update(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("removing finalizer from Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	klog.FromContext(ctx).Info("Deleted Neutron resources and removed finalizer")
	c.recorder.Event(network, "Normal", "NeutronDeleted", "Deleted the Neutron subnet and network")
	return nil
}

// deleteOwned deletes the owner's subnets, then its networks. 404 counts as done.
func (c *Controller) deleteOwned(ctx context.Context, owner neutron.Owner) error {
	subnets, err := listOwned(ctx, owner, c.neutron.ListSubnets)
	if err != nil {
		return err
	}
	for _, s := range subnets {
		if err := c.neutron.DeleteSubnet(ctx, s.ID); err != nil {
			return err
		}
		klog.FromContext(ctx).V(2).Info("Deleted Neutron subnet", "subnetID", s.ID)
	}
	nets, err := listOwned(ctx, owner, c.neutron.ListNetworks)
	if err != nil {
		return err
	}
	for _, n := range nets {
		if err := c.neutron.DeleteNetwork(ctx, n.ID); err != nil {
			return err
		}
		klog.FromContext(ctx).V(2).Info("Deleted Neutron network", "networkID", n.ID)
	}
	return nil
}

// deleteNeutronNetwork deletes one network of this cluster and the cluster's subnets on it.
func (c *Controller) deleteNeutronNetwork(ctx context.Context, networkID string) error {
	subnets, err := c.neutron.ListSubnets(ctx, neutron.Filter{
		Tags: []string{neutron.ClusterTag(c.config.ClusterID)}, NetworkID: networkID})
	if err != nil {
		return err
	}
	for _, s := range subnets {
		if err := c.neutron.DeleteSubnet(ctx, s.ID); err != nil {
			return err
		}
	}
	return c.neutron.DeleteNetwork(ctx, networkID)
}

// listOwned returns the owner's resources: the tagged ones and the ones an interrupted
// create left with only the ownership description.
func listOwned[T interface{ GetID() string }](ctx context.Context, owner neutron.Owner,
	list func(context.Context, neutron.Filter) ([]T, error)) ([]T, error) {
	tagged, err := list(ctx, neutron.Filter{Tags: owner.Tags()})
	if err != nil {
		return nil, err
	}
	described, err := list(ctx, neutron.Filter{Description: owner.Description()})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []T
	for _, r := range append(tagged, described...) {
		id := r.GetID()
		if !seen[id] {
			seen[id] = true
			out = append(out, r)
		}
	}
	return out, nil
}
