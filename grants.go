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
	"github.com/samplecrd/network-controller/pkg/grants"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/secretwatch"
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
	// DelegatesTo names the identities whose Secret is secret.
	DelegatesTo(secret cache.ObjectName) []string
}

// watchGrants queues the Networks of every namespace whose powers may have changed: a
// refused Network waits for exactly that, and a power taken away is undone at once.
func (c *Controller) watchGrants(book GrantBook) error {
	if err := c.networks.AddIndexers(cache.Indexers{byClusterIdentityIndex: indexByClusterIdentity}); err != nil {
		return fmt.Errorf("indexing Networks by ClusterIdentity: %w", err)
	}
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

// byClusterIdentityIndex indexes Networks by the ClusterIdentity their credentials
// are those of.
const byClusterIdentityIndex = "clusterIdentity"

func indexByClusterIdentity(obj any) ([]string, error) {
	if network, ok := obj.(*samplecrdv1.Network); ok && network.Spec.CloudCredentialsRef.Delegated() {
		return []string{network.Spec.CloudCredentialsRef.ClusterIdentity}, nil
	}
	return nil, nil
}

// queueUsersOfIdentity queues the Networks that name the ClusterIdentity: its Secret
// changed.
func (c *Controller) queueUsersOfIdentity(identity string, class fairqueue.Class) {
	users, err := c.networks.ByIndex(byClusterIdentityIndex, identity)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("finding the Networks that use ClusterIdentity %s: %w", identity, err))
		return
	}
	for _, network := range users {
		c.enqueueNetwork(network, class)
	}
}

// watchIdentitySecrets keeps a watch on the Secret of each ClusterIdentity that names
// one, as on a Secret a Network names, for the Networks that name the identity: a
// controller watching every namespace watches every identity's Secret, so that the
// identities' status follows them; one watching some namespaces only those its Networks
// name, the rest being no business of its. The identity is the watch's user: its key has
// no namespace, which no Network's has.
func (c *Controller) watchIdentitySecrets(identities cache.SharedIndexInformer, secrets *secretwatch.Watches) error {
	use := func(name string) {
		secret := cache.ObjectName{}
		obj, found, err := identities.GetStore().GetByKey(name)
		if identity, ok := obj.(*samplecrdv1.ClusterIdentity); err == nil && found && ok && c.watchesSecretOf(name) {
			secret = grants.SecretOf(identity)
		}
		secrets.Use(cache.ObjectName{Name: name}, secret)
	}
	useNamed := func(objs ...any) {
		for _, obj := range objs {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if network, ok := obj.(*samplecrdv1.Network); ok && network.Spec.CloudCredentialsRef.Delegated() {
				use(network.Spec.CloudCredentialsRef.ClusterIdentity)
			}
		}
	}
	_, err := identities.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { use(identityName(obj)) },
		UpdateFunc: func(_, new any) { use(identityName(new)) },
		DeleteFunc: func(obj any) { use(identityName(obj)) },
	})
	if err != nil {
		return fmt.Errorf("adding the ClusterIdentity Secret watches' event handlers: %w", err)
	}
	return c.networks.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { useNamed(obj) },
		UpdateFunc: func(old, new any) { useNamed(old, new) },
		DeleteFunc: func(obj any) { useNamed(obj) },
	})
}

// watchesSecretOf reports whether the controller watches the Secret of the identity name.
func (c *Controller) watchesSecretOf(name string) bool {
	if c.config.Namespaces.All() {
		return true
	}
	named, err := c.networks.ByIndex(byClusterIdentityIndex, name)
	return err == nil && len(named) > 0
}

func identityName(obj any) string {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return ""
	}
	return key
}

// secretChanges hands changed the key of each Secret a watch sees appear, change or go.
func secretChanges(changed func(secret cache.ObjectName)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { changed(secretName(obj)) },
		UpdateFunc: func(_, new any) { changed(secretName(new)) },
		DeleteFunc: func(obj any) { changed(secretName(obj)) },
	}
}
