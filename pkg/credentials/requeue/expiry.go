package requeue

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// ExpiryCheckPeriod is how often the cached Networks are compared with their
// credentials' expiry: time alone, with no event, brings credentials into the warning.
const ExpiryCheckPeriod = time.Minute

// OnExpiry queues, every period until ctx is done, each Network whose
// CredentialsExpiring condition no longer says what its credentials' expiry (warning
// ahead, 0: never) calls for; its reconcile writes it. Reading the cache and the registry
// costs no call.
func (n *Networks) OnExpiry(ctx context.Context, warning, period time.Duration, now func() time.Time) {
	if warning <= 0 {
		return
	}
	wait.UntilWithContext(ctx, func(context.Context) { n.ExpiryChanges(warning, now()) }, period)
}

// ExpiryChanges queues the Networks whose CredentialsExpiring condition is due to appear
// or go at now, and returns how many.
func (n *Networks) ExpiryChanges(warning time.Duration, now time.Time) int {
	queued := 0
	for _, obj := range n.networks.List() {
		network, ok := obj.(*samplecrdv1.Network)
		if !ok || network.DeletionTimestamp != nil || reconcile.IsPaused(network) {
			continue
		}
		key := cache.MetaObjectToName(network)
		due := reconcile.ExpiryWarning(network, n.registry.ExpiryOf(key), now, warning) != ""
		if due != reconcile.HasExpiryWarning(network) {
			n.enqueue(key, fairqueue.Resync)
			queued++
		}
	}
	return queued
}
