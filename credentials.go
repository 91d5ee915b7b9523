package main

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credguard"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/secretwatch"
)

// watchCredentials keeps a watch on each Secret that Networks name, and queues the
// Networks that use a Secret whenever it appears, changes, goes (or loses its label), or
// becomes readable: a rotated credential is used from the next Neutron call on, and a
// Network waiting for a missing, unlabelled or ungranted Secret is tried again as soon as
// that is fixed. A ClusterIdentity's Secret is watched for the identity
// (watchIdentitySecrets); its users are the Networks naming an identity delegatesTo
// returns for it.
func (c *Controller) watchCredentials(secrets *secretwatch.Watches, delegatesTo func(secret cache.ObjectName) []string) error {
	queueUsers := func(secret cache.ObjectName, class fairqueue.Class) {
		c.queueUsers(secret, class)
		for _, identity := range delegatesTo(secret) {
			c.queueUsersOfIdentity(identity, class)
		}
	}
	use := func(obj any) {
		if network, ok := obj.(*samplecrdv1.Network); ok {
			secrets.Use(cache.MetaObjectToName(network), credguard.SecretOf(network))
		}
	}
	err := c.networks.AddEventHandler(cache.ResourceEventHandlerFuncs{
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
				c.tenants.ForgetSecret(secret.GetNamespace(), secret.GetName())
			}
			queueUsers(secretName(obj), fairqueue.UserChange)
		},
	})
	secrets.OnAccessGranted(func(secret cache.ObjectName) { queueUsers(secret, fairqueue.UserChange) })
	return nil
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

// queueUsers queues the Networks that name the Secret of their namespace.
func (c *Controller) queueUsers(secret cache.ObjectName, class fairqueue.Class) {
	if secret == (cache.ObjectName{}) {
		return
	}
	users, err := c.networks.Indexer(secret.Namespace).ByIndex(credguard.BySecretIndex, secret.String())
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("finding the Networks that use Secret %s: %w", secret, err))
		return
	}
	for _, network := range users {
		c.enqueueNetwork(network, class)
	}
}
