package credentials

import (
	"context"
	"slices"
	"strings"

	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Delegated lets the orphan collection visit the project each ClusterIdentity with a
// secretRef delegates, whether or not a Network uses it now. A project is reached with
// the credentials of the Networks that use it, so one whose last Network was
// force-removed (its finalizer stripped) would never be visited again, and its orphans
// would stay for good; the identity's Secret, the operator's, is still there. So each
// pass uses the credentials of every delegating identity itself, as a Network naming it
// would (one client and token shared with those Networks), and lets them go once the
// identity delegates no more.
type Delegated struct {
	// Identities is the store of the ClusterIdentity informer; nil: only the projects
	// Networks use are visited.
	Identities cache.Store
	// Delegation says what an identity hands a namespace (grants.Book.Delegation). It is
	// asked only by a controller watching some namespaces, which visits only the projects
	// delegated to those: the other identities are no business of its.
	Delegation func(namespace, identity string) (grants.Delegation, error)
	// UseSecret keeps the Secret of a user watched (secretwatch.Watches.Use), as a
	// Network naming it would: credentials are read from watched Secrets only, and a
	// controller watching some namespaces watches an identity's Secret for its Networks
	// only while they name it. nil: none is kept.
	UseSecret func(user, secret cache.ObjectName)
}

// delegatedUser is the key an identity's credentials are used under for the orphan
// collection, in the Registry and the Secret watches: a Network's key has a namespace, the
// identity's own Secret watch (the requeue's) is under its bare name, and ":" is in
// neither.
func delegatedUser(identity string) cache.ObjectName {
	return cache.ObjectName{Name: "orphan-collection:" + identity}
}

// sources returns where the credentials of each identity whose project is visited are,
// by identity name.
func (d Delegated) sources(namespaces scope.Namespaces) []registry.Source {
	if d.Identities == nil {
		return nil
	}
	var out []registry.Source
	for _, obj := range d.Identities.List() {
		identity, ok := obj.(*samplecrdv1.ClusterIdentity)
		if !ok || identity.Spec.SecretRef == nil || !d.delegatesToAny(identity.Name, namespaces) {
			continue
		}
		out = append(out, registry.Source{Secret: grants.SecretOf(identity), Cloud: identity.Spec.CloudName, Identity: identity.Name})
	}
	slices.SortFunc(out, func(a, b registry.Source) int { return strings.Compare(a.Identity, b.Identity) })
	return out
}

// delegatesToAny reports whether the identity delegates its project to a namespace
// watched; every identity does to a controller watching all of them.
func (d Delegated) delegatesToAny(identity string, namespaces scope.Namespaces) bool {
	if namespaces.All() {
		return true
	}
	if d.Delegation == nil {
		return false
	}
	return slices.ContainsFunc(namespaces, func(namespace string) bool {
		_, err := d.Delegation(namespace, identity)
		return err == nil
	})
}

// ReachDelegated resolves the credentials of each identity whose project is visited, for
// a controller watching namespaces, so that the project is among the Projects even when
// no Network uses it, and lets go of those of identities no longer visited. An identity
// whose Secret cannot be used is skipped: its status says why (identitystatus), and its
// orphans wait for the next pass.
func (t *Tenants) ReachDelegated(ctx context.Context, namespaces scope.Namespaces) {
	logger := klog.FromContext(ctx)
	d := t.delegated
	t.reachingMu.Lock()
	defer t.reachingMu.Unlock()
	reaching := map[cache.ObjectName]bool{}
	for _, src := range d.sources(namespaces) {
		user := delegatedUser(src.Identity)
		reaching[user] = true
		if d.UseSecret != nil {
			d.UseSecret(user, src.Secret)
		}
		if _, err := t.registry.Resolve(ctx, user, &src); err != nil {
			logger.V(2).Info("Cannot visit the project a ClusterIdentity delegates; its orphans wait", "clusterIdentity", src.Identity, "err", err)
		}
	}
	for user := range t.reachingUsers {
		if !reaching[user] {
			if d.UseSecret != nil {
				d.UseSecret(user, cache.ObjectName{})
			}
			t.registry.Forget(user)
		}
	}
	t.reachingUsers = reaching
}
