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

// The finalizer keeps a Network in the API until its Neutron side is gone.

// ensureFinalizer adds the finalizer before the first Neutron call, so no Neutron resource
// can exist for an object that could disappear without cleanup. Adding it is therefore
// proof that the owner has no network yet, which spares the create a lookup.
func (c *Controller) ensureFinalizer(ctx context.Context, store *neutron.Store, network *samplecrdv1.Network) (*samplecrdv1.Network, error) {
	if slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Finalizers = append(updated.Finalizers, samplecrdv1.FinalizerName)
	updated, err := c.client.SamplecrdV1().Networks(network.Namespace).Update(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, fmt.Errorf("adding finalizer to Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	store.RecordAbsent(neutronOwner(updated, c.config.ClusterID))
	klog.FromContext(ctx).V(2).Info("Added finalizer")
	return updated, nil
}

// removeFinalizer lets the API delete the Network. It reports whether the object was
// still there to remove it from.
func (c *Controller) removeFinalizer(ctx context.Context, network *samplecrdv1.Network) (bool, error) {
	updated := network.DeepCopy()
	updated.Finalizers = slices.DeleteFunc(updated.Finalizers, func(f string) bool { return f == samplecrdv1.FinalizerName })
	_, err := c.client.SamplecrdV1().Networks(network.Namespace).Update(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("removing finalizer from Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	return true, nil
}
