package reconcile

import (
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/metrics"
)

// creationSeenLate is how long after its creationTimestamp (whole seconds) a Network may
// first be seen and still count as seen when it was created. Seen later, the controller
// was not watching then, and the wait counts from the creationTimestamp.
const creationSeenLate = 2 * time.Second

// readyClock remembers since when each Network not Ready for its generation has been
// waiting, for the time to Ready. Only Networks that wait have an entry.
type readyClock struct {
	mu      sync.Mutex
	waiting map[cache.ObjectName]readyWait
	now     func() time.Time
	metrics *metrics.Metrics
}

type readyWait struct {
	generation int64
	since      time.Time
	change     string
}

func newReadyClock(now func() time.Time, m *metrics.Metrics) *readyClock {
	return &readyClock{waiting: map[cache.ObjectName]readyWait{}, now: now, metrics: m}
}

// saw notes a Network as the informer delivers it: a new generation that is not Ready
// starts a wait, a Ready or deleting one ends it.
func (r *readyClock) saw(network *samplecrdv1.Network) {
	key := cache.MetaObjectToName(network)
	r.mu.Lock()
	defer r.mu.Unlock()
	if network.IsReady() || network.DeletionTimestamp != nil {
		delete(r.waiting, key)
		return
	}
	if w, ok := r.waiting[key]; ok && w.generation == network.Generation {
		return
	}
	now := r.now()
	w := readyWait{generation: network.Generation, since: now, change: metrics.ChangeUpdate}
	if network.Generation <= 1 {
		w.change = metrics.ChangeCreate
		if created := network.CreationTimestamp.Time; now.Sub(created) > creationSeenLate {
			w.since = created
		}
	}
	r.waiting[key] = w
}

// stopwatch returns what records, once network has been made Ready, how long it
// waited. Take it before the status write: the informer ends the wait as soon as it
// delivers the write, which can be before the writer hears back.
func (r *readyClock) stopwatch(network *samplecrdv1.Network) (stop func()) {
	change, since, ok := r.waitOf(network)
	return func() {
		if ok {
			r.metrics.ObserveTimeToReady(change, r.now().Sub(since))
			r.forget(cache.MetaObjectToName(network))
		}
	}
}

// forget drops the wait of a Network gone from the API.
func (r *readyClock) forget(key cache.ObjectName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.waiting, key)
}

// waitOf returns what network, not Ready yet, waits for and since when; ok is false when
// no wait for its generation was seen.
func (r *readyClock) waitOf(network *samplecrdv1.Network) (change string, since time.Time, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, found := r.waiting[cache.MetaObjectToName(network)]
	if !found || w.generation != network.Generation {
		return "", time.Time{}, false
	}
	return w.change, w.since, true
}
