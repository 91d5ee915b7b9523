// Package requeue queues the Networks whose credentials may have changed: a Secret that
// appears, changes, goes or becomes readable; a ClusterIdentity's Secret; a grant given or
// taken away; credentials coming into, or going out of, their expiry warning. A Network
// waiting for any of these is tried again at once, with no spec change and no restart.
//
// It decides nothing about the Networks it queues; the reconciler does, on their next pass.
package requeue

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Enqueue queues the Network key, saying why.
type Enqueue func(key cache.ObjectName, class fairqueue.Class)

// Networks queues the cached Networks that credentials events concern.
type Networks struct {
	networks   *scope.Informers
	namespaces scope.Namespaces
	registry   *registry.Registry
	enqueue    Enqueue
}

// New returns the Networks of the informers (watching namespaces), queued through
// enqueue. It indexes them by the ClusterIdentity they name.
func New(networks *scope.Informers, namespaces scope.Namespaces, tenants *registry.Registry, enqueue Enqueue) (*Networks, error) {
	if err := networks.AddIndexers(cache.Indexers{byClusterIdentityIndex: indexByClusterIdentity}); err != nil {
		return nil, fmt.Errorf("indexing Networks by ClusterIdentity: %w", err)
	}
	return &Networks{networks: networks, namespaces: namespaces, registry: tenants, enqueue: enqueue}, nil
}

// byClusterIdentityIndex indexes Networks by the ClusterIdentity their credentials are
// those of.
const byClusterIdentityIndex = "clusterIdentity"

func indexByClusterIdentity(obj any) ([]string, error) {
	if network, ok := obj.(*samplecrdv1.Network); ok && network.Spec.CloudCredentialsRef.Delegated() {
		return []string{network.Spec.CloudCredentialsRef.ClusterIdentity}, nil
	}
	return nil, nil
}

// queueAll queues each of the Networks objs for class.
func (n *Networks) queueAll(objs []any, class fairqueue.Class) {
	for _, obj := range objs {
		if network, ok := obj.(*samplecrdv1.Network); ok {
			n.enqueue(cache.MetaObjectToName(network), class)
		}
	}
}

// UsersOfIdentity queues the Networks that name the ClusterIdentity: its Secret changed.
func (n *Networks) UsersOfIdentity(identity string, class fairqueue.Class) {
	users, err := n.networks.ByIndex(byClusterIdentityIndex, identity)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("finding the Networks that use ClusterIdentity %s: %w", identity, err))
		return
	}
	n.queueAll(users, class)
}

// namedIdentity reports whether one of the Networks names the identity.
func (n *Networks) namedIdentity(identity string) bool {
	named, err := n.networks.ByIndex(byClusterIdentityIndex, identity)
	return err == nil && len(named) > 0
}
