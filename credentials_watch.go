package main

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// watchCredentials queues the Networks that use a Secret whenever it is created, changed
// or deleted: a rotated credential is used from the next Neutron call on, and a Network
// waiting for a missing or broken Secret is tried again as soon as it is fixed.
// secrets watch Secrets' metadata only.
func (c *Controller) watchCredentials(secrets *scope.Informers) error {
	// A Network whose Secret the cache has not seen yet would be refused as missing.
	c.synced = append(c.synced, secrets.HasSynced)
	err := c.networks.AddIndexers(cache.Indexers{bySecretIndex: indexBySecret})
	if err != nil {
		return fmt.Errorf("indexing Networks by credentials Secret: %w", err)
	}
	queueUsers := func(obj any, class fairqueue.Class) {
		if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tombstone.Obj
		}
		secret, ok := obj.(metav1.Object)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("credentials watch: unexpected object %T", obj))
			return
		}
		users, err := c.networks.Indexer(secret.GetNamespace()).ByIndex(bySecretIndex, secret.GetNamespace()+"/"+secret.GetName())
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("finding the Networks that use Secret %s/%s: %w", secret.GetNamespace(), secret.GetName(), err))
			return
		}
		for _, network := range users {
			c.enqueueNetwork(network, class)
		}
	}
	err = secrets.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			if isInInitialList {
				queueUsers(obj, fairqueue.InitialList)
			} else {
				queueUsers(obj, fairqueue.UserChange)
			}
		},
		UpdateFunc: func(old, new any) {
			if old.(metav1.Object).GetResourceVersion() != new.(metav1.Object).GetResourceVersion() {
				queueUsers(new, fairqueue.UserChange)
			}
		},
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if secret, ok := obj.(metav1.Object); ok {
				c.tenants.ForgetSecret(secret.GetNamespace(), secret.GetName())
			}
			queueUsers(obj, fairqueue.UserChange)
		},
	})
	if err != nil {
		return fmt.Errorf("adding Secret event handlers: %w", err)
	}
	return nil
}
