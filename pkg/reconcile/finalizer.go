package reconcile

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
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// The finalizer keeps a Network in the API until its Neutron side is gone.
//
// It goes on and comes off by a patch of the finalizer list alone, with the
// resourceVersion it was computed from as a precondition: an update would write back the
// whole object as this version of the controller knows it, dropping fields a newer API
// has, and a list changed meanwhile by someone else is answered with a conflict and read
// again rather than overwritten.

// finalizers puts the Network finalizer on and takes it off.
type finalizers struct {
	client       clientset.Interface
	fieldManager string
	writes       *ownWrites
}

// ensure adds the finalizer before the first Neutron call, so no Neutron resource
// can exist for an object that could disappear without cleanup. Adding it is therefore
// proof that the owner has no network yet, which spares the create a lookup. The same
// write pins the project the resources go to (samplecrdv1.AnnotationProject).
func (f finalizers) ensure(ctx context.Context, store *neutronstore.Store, network *samplecrdv1.Network, owner neutron.Owner, place neutron.Place) (*samplecrdv1.Network, error) {
	if slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return network, nil
	}
	var annotations map[string]string
	if place.ProjectID != "" && network.Status.ProjectID == "" {
		annotations = map[string]string{samplecrdv1.AnnotationProject: place.ProjectID}
	}
	updated, err := f.patch(ctx, network, append(slices.Clone(network.Finalizers), samplecrdv1.FinalizerName), annotations)
	if err != nil {
		return nil, fmt.Errorf("adding finalizer to Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	store.RecordAbsent(owner)
	klog.FromContext(ctx).V(2).Info("Added finalizer")
	return updated, nil
}

// remove lets the API delete the Network. It reports whether the object was
// still there to remove it from.
func (f finalizers) remove(ctx context.Context, network *samplecrdv1.Network) (bool, error) {
	others := slices.DeleteFunc(slices.Clone(network.Finalizers), func(f string) bool { return f == samplecrdv1.FinalizerName })
	_, err := f.patch(ctx, network, others, nil)
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("removing finalizer from Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	return true, nil
}

// patch sets the Network's finalizers to finalizers, and the annotations given (none
// other is touched), if its resourceVersion is still the one network has.
func (f finalizers) patch(ctx context.Context, network *samplecrdv1.Network, finalizers []string, annotations map[string]string) (*samplecrdv1.Network, error) {
	if finalizers == nil {
		// null would delete the key; [] says "no finalizers" in a merge patch as well.
		finalizers = []string{}
	}
	metadata := map[string]any{
		"resourceVersion": network.ResourceVersion,
		"finalizers":      finalizers,
	}
	if len(annotations) > 0 {
		metadata["annotations"] = annotations
	}
	patch, err := json.Marshal(map[string]any{"metadata": metadata})
	if err != nil {
		return nil, fmt.Errorf("encoding the finalizer patch: %w", err)
	}
	return f.writes.timed(metrics.WriteFinalizer, func() (*samplecrdv1.Network, error) {
		return f.client.SamplecrdV1().Networks(network.Namespace).Patch(ctx, network.Name, types.MergePatchType, patch,
			metav1.PatchOptions{FieldManager: f.fieldManager})
	})
}
