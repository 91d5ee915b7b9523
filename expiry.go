package main

import (
	"context"
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// expiryCheckPeriod is how often the cached Networks are compared with their
// credentials' expiry: time alone, with no event, brings credentials into the warning.
const expiryCheckPeriod = time.Minute

// requeueOnExpiry queues, every period until ctx is done, each Network whose
// CredentialsExpiring condition no longer says what its credentials' expiry calls for;
// its reconcile writes it. Reading the cache and the registry costs no call.
func (c *Controller) requeueOnExpiry(ctx context.Context, period time.Duration) {
	if c.config.ExpiryWarning <= 0 {
		return
	}
	wait.UntilWithContext(ctx, func(context.Context) { c.queueExpiryChanges() }, period)
}

// queueExpiryChanges queues the Networks whose CredentialsExpiring condition is due to
// appear or go, and returns how many.
func (c *Controller) queueExpiryChanges() int {
	now, queued := c.now(), 0
	for _, obj := range c.networks.List() {
		network, ok := obj.(*samplecrdv1.Network)
		if !ok || network.DeletionTimestamp != nil || reconcile.IsPaused(network) {
			continue
		}
		key := cache.MetaObjectToName(network)
		due := reconcile.ExpiryWarning(network, c.tenants.ExpiryOf(key), now, c.config.ExpiryWarning) != ""
		if due != reconcile.HasExpiryWarning(network) {
			c.workqueue.addFor(key, fairqueue.Resync)
			queued++
		}
	}
	return queued
}

// credentialExpiries lists, for the metrics, when the credentials in use expire.
func credentialExpiries(tenants *tenancy.Registry) func() []metrics.CredentialsExpiry {
	return func() []metrics.CredentialsExpiry {
		var out []metrics.CredentialsExpiry
		for _, e := range tenants.Expiries() {
			m := metrics.CredentialsExpiry{Kind: e.Kind, At: e.At}
			if e.Source != nil {
				// A cloud's name is the tenant's to choose, and may be long.
				m.Namespace, m.Secret, m.Cloud, m.Identity = e.Source.Secret.Namespace, e.Source.Secret.Name, shortLabel(e.Source.Cloud), e.Source.Identity
			}
			out = append(out, m)
		}
		return out
	}
}

// shortLabel cuts a label value a tenant chose to 64 bytes, on a rune boundary.
func shortLabel(s string) string {
	if len(s) <= 64 {
		return s
	}
	end := 64
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}
