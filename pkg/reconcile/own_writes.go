package reconcile

import (
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/metrics"
)

// ownWrites remembers the resourceVersions the controller's own writes (finalizer and
// status) gave each Network, until the informer delivers them. The pass that wrote a
// version went on from the object the write returned, so the informer's report of it has
// nothing new: queueing it would only cost a pass that re-reads what the last one wrote,
// and, while the cache is still behind, a write conflict and a retry. A version written
// by anyone else is never in here, and is queued as before.
type ownWrites struct {
	metrics *metrics.Metrics
	now     func() time.Time

	mu    sync.Mutex
	byKey map[cache.ObjectName][]string
}

// ownWritesKept bounds the versions kept per Network: a pass writes at most a few
// (finalizer, project, progress, outcome), and a version the informer never delivers on
// its own (a relist delivers only the latest) is never claimed.
const ownWritesKept = 4

func newOwnWrites(m *metrics.Metrics, now func() time.Time) *ownWrites {
	return &ownWrites{metrics: m, now: now, byKey: map[cache.ObjectName][]string{}}
}

// timed runs write, one API write of kind (metrics.WriteStatus or WriteFinalizer), records
// how long it took and remembers the version it gave the Network.
func (o *ownWrites) timed(kind string, write func() (*samplecrdv1.Network, error)) (*samplecrdv1.Network, error) {
	start := o.now()
	written, err := write()
	if o.metrics != nil {
		o.metrics.ObserveAPIWrite(kind, o.now().Sub(start))
	}
	if err == nil && written != nil && written.ResourceVersion != "" {
		o.remember(written)
	}
	return written, err
}

func (o *ownWrites) remember(written *samplecrdv1.Network) {
	key := cache.MetaObjectToName(written)
	o.mu.Lock()
	defer o.mu.Unlock()
	versions := append(o.byKey[key], written.ResourceVersion)
	if len(versions) > ownWritesKept {
		versions = slices.Delete(versions, 0, len(versions)-ownWritesKept)
	}
	o.byKey[key] = versions
}

// claim reports whether network, as the informer delivers it, is a version the
// controller wrote itself, and forgets that version.
func (o *ownWrites) claim(network *samplecrdv1.Network) bool {
	key := cache.MetaObjectToName(network)
	o.mu.Lock()
	defer o.mu.Unlock()
	versions := o.byKey[key]
	i := slices.Index(versions, network.ResourceVersion)
	if i < 0 {
		return false
	}
	// Versions before it were delivered before it, or never will be.
	if versions = versions[i+1:]; len(versions) == 0 {
		delete(o.byKey, key)
	} else {
		o.byKey[key] = versions
	}
	return true
}

// forget drops what is kept about a Network gone from the API.
func (o *ownWrites) forget(key cache.ObjectName) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.byKey, key)
}
