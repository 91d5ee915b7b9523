package requeue

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/secretguard"
	"github.com/samplecrd/network-controller/pkg/credentials/secretwatch"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
)

// OnSecrets keeps a watch on each Secret that Networks name, and queues the Networks that
// use a Secret whenever it appears, changes, goes (or loses its label), or becomes
// readable: a rotated credential is used from the next Neutron call on, and a Network
// waiting for a missing, unlabelled or ungranted Secret is tried again as soon as that is
// fixed. A ClusterIdentity's Secret is watched for the identity (OnIdentitySecrets); its
// users are the Networks naming an identity delegatesTo returns for it.
func (n *Networks) OnSecrets(secrets *secretwatch.Watches, delegatesTo func(secret cache.ObjectName) []string) error {
	queueUsers := func(secret cache.ObjectName, class fairqueue.Class) {
		n.usersOfSecret(secret, class)
		for _, identity := range delegatesTo(secret) {
			n.UsersOfIdentity(identity, class)
		}
	}
	use := func(obj any) {
		if network, ok := obj.(*samplecrdv1.Network); ok {
			secrets.Use(cache.MetaObjectToName(network), secretguard.SecretOf(network))
		}
	}
	err := n.networks.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    use,
		UpdateFunc: func(_, new any) { use(new) },
		DeleteFunc: func(obj any) {
			if key, err := cache.DeletionHandlingObjectToName(obj); err == nil {
				secrets.Use(key, cache.ObjectName{})
			}
		},
	})
	if err != nil {
		return fmt.Errorf("adding the credentials watches' Network event handlers: %w", err)
	}
	secrets.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			if isInInitialList {
				queueUsers(secretName(obj), fairqueue.InitialList)
			} else {
				queueUsers(secretName(obj), fairqueue.UserChange)
			}
		},
		UpdateFunc: func(old, new any) {
			if old.(metav1.Object).GetResourceVersion() != new.(metav1.Object).GetResourceVersion() {
				queueUsers(secretName(new), fairqueue.UserChange)
			}
		},
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if secret, ok := obj.(metav1.Object); ok {
				n.registry.ForgetSecret(secret.GetNamespace(), secret.GetName())
			}
			queueUsers(secretName(obj), fairqueue.UserChange)
		},
	})
	secrets.OnAccessGranted(func(secret cache.ObjectName) { queueUsers(secret, fairqueue.UserChange) })
	return nil
}

// usersOfSecret queues the Networks that name the Secret of their namespace.
func (n *Networks) usersOfSecret(secret cache.ObjectName, class fairqueue.Class) {
	if secret == (cache.ObjectName{}) {
		return
	}
	users, err := n.networks.Indexer(secret.Namespace).ByIndex(secretguard.BySecretIndex, secret.String())
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("finding the Networks that use Secret %s: %w", secret, err))
		return
	}
	n.queueAll(users, class)
}

// OnIdentitySecrets keeps a watch on the Secret of each ClusterIdentity that names one,
// as on a Secret a Network names, for the Networks that name the identity: a controller
// watching every namespace watches every identity's Secret, so that the identities'
// status follows them; one watching some namespaces only those its Networks name, the
// rest being no business of its. The identity is the watch's user: its key has no
// namespace, which no Network's has.
func (n *Networks) OnIdentitySecrets(identities cache.SharedIndexInformer, secrets *secretwatch.Watches) error {
	use := func(name string) {
		secret := cache.ObjectName{}
		obj, found, err := identities.GetStore().GetByKey(name)
		if identity, ok := obj.(*samplecrdv1.ClusterIdentity); err == nil && found && ok && n.WatchesSecretOf(name) {
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
	return n.networks.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { useNamed(obj) },
		UpdateFunc: func(old, new any) { useNamed(old, new) },
		DeleteFunc: func(obj any) { useNamed(obj) },
	})
}

// WatchesSecretOf reports whether the controller watches the Secret of the identity name.
func (n *Networks) WatchesSecretOf(name string) bool {
	return n.namespaces.All() || n.namedIdentity(name)
}

func identityName(obj any) string {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return ""
	}
	return key
}

// secretName returns the key of the Secret obj (or of a tombstone's).
func secretName(obj any) cache.ObjectName {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	secret, ok := obj.(metav1.Object)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("credentials watch: unexpected object %T", obj))
		return cache.ObjectName{}
	}
	return cache.MetaObjectToName(secret)
}

// SecretChanges hands changed the key of each Secret a watch sees appear, change or go.
func SecretChanges(changed func(secret cache.ObjectName)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { changed(secretName(obj)) },
		UpdateFunc: func(_, new any) { changed(secretName(new)) },
		DeleteFunc: func(obj any) { changed(secretName(obj)) },
	}
}
