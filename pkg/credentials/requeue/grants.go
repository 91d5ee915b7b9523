package requeue

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/fairqueue"
)

// OnGrantChanges queues the Networks of every watched namespace whose powers may have
// changed (onChange reports the namespace): a refused Network waits for exactly that, and
// a power taken away is undone at once.
func (n *Networks) OnGrantChanges(onChange func(changed func(namespace string)) error) error {
	return onChange(func(namespace string) {
		if !n.namespaces.Contains(namespace) {
			return
		}
		networks, err := n.networks.Indexer(namespace).ByIndex(cache.NamespaceIndex, namespace)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("finding the Networks of namespace %s, whose grants changed: %w", namespace, err))
			return
		}
		n.queueAll(networks, fairqueue.UserChange)
	})
}
