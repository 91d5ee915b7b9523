package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// grantInformers returns the informers a grants.Book reads: of ClusterIdentity objects,
// and of the namespaces' metadata (their labels are all a selector reads).
func grantInformers(networkClient clientset.Interface, metadataClient metadata.Interface) (identities, namespaces cache.SharedIndexInformer) {
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

// GrantBook is what the controller needs of the powers ClusterIdentity objects grant:
// the powers themselves, for the reconciler, and word of when they may have changed.
type GrantBook interface {
	reconcile.Grants
	HasSynced() bool
	OnChange(changed func(namespace string)) error
}

// watchGrants queues the Networks of every namespace whose powers may have changed: a
// refused Network waits for exactly that, and a power taken away is undone at once.
func (c *Controller) watchGrants(book GrantBook) error {
	return book.OnChange(func(namespace string) {
		if !c.config.Namespaces.Contains(namespace) {
			return
		}
		networks, err := c.networks.Indexer(namespace).ByIndex(cache.NamespaceIndex, namespace)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("finding the Networks of namespace %s, whose grants changed: %w", namespace, err))
			return
		}
		for _, network := range networks {
			c.enqueueNetwork(network, fairqueue.UserChange)
		}
	})
}

// routerOwners names the cached Networks of namespace whose status names a router of
// their own, for allow.routersPerNamespace.
func (c *Controller) routerOwners(namespace string) []string {
	networks, err := c.networks.Indexer(namespace).ByIndex(cache.NamespaceIndex, namespace)
	if err != nil {
		return nil
	}
	var owners []string
	for _, obj := range networks {
		if network, ok := obj.(*samplecrdv1.Network); ok && network.Status.Router != nil && network.Status.Router.Owned {
			owners = append(owners, network.Name)
		}
	}
	return owners
}
