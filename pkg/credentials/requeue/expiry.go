package requeue

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
)

// ExpiryCheckPeriod is how often the cached Networks are compared with their
// credentials' expiry: time alone, with no event, brings credentials into the warning.
const ExpiryCheckPeriod = time.Minute

// OnExpiry queues, every period until ctx is done, each Network whose CredentialsExpiring
// condition outOfDate says no longer says what its credentials' expiry calls for (the
// reconciler knows the condition); its reconcile writes it.
func (n *Networks) OnExpiry(ctx context.Context, period time.Duration, now func() time.Time, outOfDate func(*samplecrdv1.Network, time.Time) bool) {
	wait.UntilWithContext(ctx, func(context.Context) { n.ExpiryChanges(now(), outOfDate) }, period)
}

// ExpiryChanges queues the Networks whose CredentialsExpiring condition is out of date
// at now, and returns how many.
func (n *Networks) ExpiryChanges(now time.Time, outOfDate func(*samplecrdv1.Network, time.Time) bool) int {
	queued := 0
	for _, obj := range n.networks.List() {
		if network, ok := obj.(*samplecrdv1.Network); ok && outOfDate(network, now) {
			n.enqueue(cache.MetaObjectToName(network), fairqueue.Resync)
			queued++
		}
	}
	return queued
}
