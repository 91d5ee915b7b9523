package reconcile

import (
	"sync"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/scope"
)

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
