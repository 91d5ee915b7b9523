package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The finalizer keeps a Network in the API until its Neutron side is gone.
//
// It goes on and comes off by a patch of the finalizer list alone, with the
// resourceVersion it was computed from as a precondition: an update would write back the
// whole object as this version of the controller knows it, dropping fields a newer API
// has, and a list changed meanwhile by someone else is answered with a conflict and read
// again rather than overwritten.

// ensureFinalizer adds the finalizer before the first Neutron call, so no Neutron resource
// can exist for an object that could disappear without cleanup. Adding it is therefore
// proof that the owner has no network yet, which spares the create a lookup.
func (c *Controller) ensureFinalizer(ctx context.Context, store *neutron.Store, network *samplecrdv1.Network) (*samplecrdv1.Network, error) {
	if slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return network, nil
	}
	updated, err := c.patchFinalizers(ctx, network, append(slices.Clone(network.Finalizers), samplecrdv1.FinalizerName))
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
	others := slices.DeleteFunc(slices.Clone(network.Finalizers), func(f string) bool { return f == samplecrdv1.FinalizerName })
	_, err := c.patchFinalizers(ctx, network, others)
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("removing finalizer from Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	return true, nil
}

// patchFinalizers sets the Network's finalizers to finalizers, if its resourceVersion is
// still the one network has.
func (c *Controller) patchFinalizers(ctx context.Context, network *samplecrdv1.Network, finalizers []string) (*samplecrdv1.Network, error) {
	if finalizers == nil {
		// null would delete the key; [] says "no finalizers" in a merge patch as well.
		finalizers = []string{}
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": network.ResourceVersion,
		"finalizers":      finalizers,
	}})
	if err != nil {
		return nil, fmt.Errorf("encoding the finalizer patch: %w", err)
	}
	return c.client.SamplecrdV1().Networks(network.Namespace).Patch(ctx, network.Name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: fieldManager})
}
