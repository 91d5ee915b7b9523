package main

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
}

type readyWait struct {
	generation int64
	since      time.Time
	change     string
}

func newReadyClock(now func() time.Time) *readyClock {
	return &readyClock{waiting: map[cache.ObjectName]readyWait{}, now: now}
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

// observeTimeToReady records how long network, just made Ready, waited for it.
func (c *Controller) observeTimeToReady(network *samplecrdv1.Network) {
	if change, waited, ok := c.readyClock.ready(network); ok {
		c.metrics.ObserveTimeToReady(change, waited)
	}
}

// forget drops the wait of a Network gone from the API.
func (r *readyClock) forget(key cache.ObjectName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.waiting, key)
}

// ready ends the wait of network, made Ready for its generation now, and returns what it
// waited for and how long; ok is false when no wait for this generation was seen.
func (r *readyClock) ready(network *samplecrdv1.Network) (change string, waited time.Duration, ok bool) {
	key := cache.MetaObjectToName(network)
	r.mu.Lock()
	defer r.mu.Unlock()
	w, found := r.waiting[key]
	if !found || w.generation != network.Generation {
		return "", 0, false
	}
	delete(r.waiting, key)
	return w.change, r.now().Sub(w.since), true
}
