package reconcile

import (
	"context"
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// RunningPasses hold, for each Network a worker reconciles, the versions the informer
// delivers meanwhile. The reports of a pass's own writes can come before the writes
// return, when it is not yet known that they are its own; when the pass ends, the Network
// needs another only if one of the versions was someone else's. The zero value is ready.
type RunningPasses struct {
	mu        sync.Mutex
	delivered map[cache.ObjectName][]*samplecrdv1.Network
}

// Begin notes that a worker took key up.
func (r *RunningPasses) Begin(key cache.ObjectName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.delivered == nil {
		r.delivered = map[cache.ObjectName][]*samplecrdv1.Network{}
	}
	r.delivered[key] = []*samplecrdv1.Network{}
}

// Deliver keeps network for the end of its pass, if one runs: true when it did.
func (r *RunningPasses) Deliver(network *samplecrdv1.Network) bool {
	key := cache.MetaObjectToName(network)
	r.mu.Lock()
	defer r.mu.Unlock()
	versions, running := r.delivered[key]
	if running {
		r.delivered[key] = append(versions, network)
	}
	return running
}

// End notes that key's pass ended, and reports whether a version delivered meanwhile was
// not one the pass wrote (own).
func (r *RunningPasses) End(key cache.ObjectName, own func(*samplecrdv1.Network) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	versions := r.delivered[key]
	delete(r.delivered, key)
	return slices.ContainsFunc(versions, func(n *samplecrdv1.Network) bool { return !own(n) })
}

// WaitFor returns once no pass runs of a Network whose namespace matches, or ctx is done:
// a shard given up lets the passes of its Networks finish before its Lease is released.
func (r *RunningPasses) WaitFor(ctx context.Context, matches func(namespace string) bool) {
	for {
		r.mu.Lock()
		running := false
		for key := range r.delivered {
			running = running || matches(key.Namespace)
		}
		r.mu.Unlock()
		if !running {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}
