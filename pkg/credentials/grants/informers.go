package grants

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
)

// NewInformers returns the informers a Book reads: of ClusterIdentity objects, and of the
// namespaces' metadata (their labels are all a selector reads).
func NewInformers(networkClient clientset.Interface, metadataClient metadata.Interface) (identities, namespaces cache.SharedIndexInformer) {
	identities = informers.NewSharedInformerFactory(networkClient, 0).Samplecrd().V1().ClusterIdentities().Informer()
	namespaces = metadatainformer.NewFilteredMetadataInformer(metadataClient, corev1.SchemeGroupVersion.WithResource("namespaces"),
		"", 0, cache.Indexers{}, nil).Informer()
	if err := namespaces.SetTransform(dropManagedFields); err != nil {
		// Only fails on an informer already started.
		utilruntime.HandleError(fmt.Errorf("trimming the namespace cache: %w", err))
	}
	return identities, namespaces
}

// dropManagedFields removes managedFields, which the grants never read, before an object
// is cached.
func dropManagedFields(obj any) (any, error) {
	if o, ok := obj.(interface {
		SetManagedFields([]metav1.ManagedFieldsEntry)
	}); ok {
		o.SetManagedFields(nil)
	}
	return obj, nil
}
