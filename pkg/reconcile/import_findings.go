package reconcile

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// importFindings hands what the Neutron resync found for an import to the worker that
// records it. A finding is for one object, generation and Place: anything else is looked
// up again.
type importFindings struct {
	mu    sync.Mutex
	byKey map[cache.ObjectName]importFinding
}

type importFinding struct {
	uid        types.UID
	generation int64
	place      neutron.Place
	result     neutron.ImportResult
}

func (f *importFindings) put(network *samplecrdv1.Network, place neutron.Place, result neutron.ImportResult) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byKey == nil {
		f.byKey = map[cache.ObjectName]importFinding{}
	}
	f.byKey[cache.MetaObjectToName(network)] = importFinding{uid: network.UID, generation: network.Generation, place: place, result: result}
}

// take returns, and forgets, the finding for the Network as it is now, in place.
func (f *importFindings) take(network *samplecrdv1.Network, place neutron.Place) (neutron.ImportResult, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := cache.MetaObjectToName(network)
	found, ok := f.byKey[key]
	delete(f.byKey, key)
	if !ok || found.uid != network.UID || found.generation != network.Generation || found.place != place {
		return neutron.ImportResult{}, false
	}
	return found.result, true
}

// forget drops the finding of a Network that no longer exists.
func (f *importFindings) forget(key cache.ObjectName) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.byKey, key)
}
