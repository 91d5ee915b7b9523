package reconcile

import (
	"fmt"
	"strings"
	"sync"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/scope"
	"k8s.io/client-go/tools/cache"
)

// retainNotGranted is the deletion of a Retain Network that no grant allows to keep its
// resources in a shared project: neither kept (they would belong to no one) nor deleted
// (the user asked to keep them), it waits for one of the two ways out.
func retainNotGranted(namespace string, powers grants.Powers) *Failure {
	why := powers.Denied() + " it (allow.retain)"
	if powers.OwnCloudRefusedBy != "" {
		why = "it no longer matches -own-cloud-namespace-selector " + powers.OwnCloudRefusedBy + ", which grants nothing"
	}
	return &Failure{Reason: samplecrdv1.ReasonRetainNotGranted, Terminal: true, Message: fmt.Sprintf(
		"the deletion waits, and the Neutron network is untouched: deletionPolicy is Retain, but namespace %s uses a project the cluster's operator hands out, and %s. "+
			"Either the operator grants it again (a ClusterIdentity that selects the namespace with allow.retain: the network is then kept), or set spec.deletionPolicy to Delete (the network is then deleted)",
		namespace, why)}
}

// notGranted is a spec asking for powers no identity selecting the namespace grants in
// a shared project: only a change of the spec, or an operator's grant, can help.
func notGranted(namespace string, withheld []string, denied string) *Failure {
	return &Failure{Reason: samplecrdv1.ReasonNotGranted, Terminal: true, Message: fmt.Sprintf(
		"namespace %s uses a project the cluster's operator hands out, and %s %s; nothing of these was done, and what was done before is undone. "+
			"Remove them from the spec, or ask the cluster's operator for a ClusterIdentity that selects the namespace and allows them",
		namespace, denied, strings.Join(withheld, "; "))}
}

// routerAdmission returns the pass's admitOwnRouter: whether the Network may have a
// router of its own in a namespace bounded to bound of them. A Network that wants none
// gives its place up.
func (r *Reconciler) routerAdmission(network *samplecrdv1.Network) func(bound int) bool {
	key := cache.MetaObjectToName(network)
	if network.Spec.Router == nil || network.Spec.Router.ExternalNetwork == nil {
		r.routerQuota.release(key)
	}
	return func(bound int) bool {
		var others []string
		if r.networks != nil {
			others = routerOwners(r.networks, network.Namespace)
		}
		return r.routerQuota.admit(key, bound, others)
	}
}

// routerQuota holds, by namespace, the Networks admitted to have a router of their own,
// so that passes running in parallel cannot together exceed allow.routersPerNamespace.
type routerQuota struct {
	mu   sync.Mutex
	held map[string]map[string]bool
}

// admit reports whether the Network key may have a router of its own in a namespace
// bounded to bound routers: it was admitted before, or the namespace holds fewer, counting
// those admitted and others (the Networks whose status names a router of their own).
func (q *routerQuota) admit(key cache.ObjectName, bound int, others []string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	held := q.held[key.Namespace]
	if held[key.Name] {
		return true
	}
	count := len(held)
	for _, name := range others {
		if name != key.Name && !held[name] {
			count++
		}
	}
	if count >= bound {
		return false
	}
	if held == nil {
		if q.held == nil {
			q.held = map[string]map[string]bool{}
		}
		held = map[string]bool{}
		q.held[key.Namespace] = held
	}
	held[key.Name] = true
	return true
}

// release frees the Network's place: it has no router of its own any more, or is gone.
func (q *routerQuota) release(key cache.ObjectName) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if held := q.held[key.Namespace]; held != nil {
		delete(held, key.Name)
		if len(held) == 0 {
			delete(q.held, key.Namespace)
		}
	}
}

// routerOwners names the cached Networks of namespace whose status names a router of
// their own.
func routerOwners(networks *scope.Informers, namespace string) []string {
	cached, err := networks.Indexer(namespace).ByIndex(cache.NamespaceIndex, namespace)
	if err != nil {
		return nil
	}
	var owners []string
	for _, obj := range cached {
		if network, ok := obj.(*samplecrdv1.Network); ok && network.Status.Router != nil && network.Status.Router.Owned {
			owners = append(owners, network.Name)
		}
	}
	return owners
}
