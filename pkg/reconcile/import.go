package reconcile

import (
	"context"
	"fmt"
	"sync"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// reconcileImport reports in status the network a Network imports (spec.import). It only
// reads Neutron, and the Network gets no finalizer: deleting it leaves Neutron alone.
//
// An import that got Neutron's answer for its generation, found or not, costs no call
// again: each Neutron resync looks at all of a project's imports at once (RecheckImports)
// and hands what changed over to this.
func (r *Reconciler) reconcileImport(ctx context.Context, st *statusWriter, network *samplecrdv1.Network) error {
	tenant, err := r.tenants.Reach(ctx, network)
	if err != nil {
		return st.failed(ctx, network, "", err)
	}
	// Credentials of another project than before are no harm here, unlike for a created
	// network: nothing was made in the first one. The import is looked up again.
	moved := network.Status.ProjectID != tenant.Place.ProjectID
	st.pinPlace(network, tenant.Place)
	st.noteExpiry(ctx, network, r.expiryWarning(network, tenant), tenant.Expiry)

	ref := ImportRef(network)
	result, found := r.findings.take(network, tenant.Place)
	if !found {
		if ImportSettled(network) && !moved {
			return st.flush(ctx, network)
		}
		visible, err := tenant.Store.LookupImport(ctx, ref)
		if err != nil {
			return st.failed(ctx, network, "", err)
		}
		result = visible.Resolve(ref)
	}
	return st.imported(ctx, network, result)
}

// importedStatus returns the status an import resolved to result gets.
func importedStatus(network *samplecrdv1.Network, result neutron.ImportResult) *samplecrdv1.NetworkStatus {
	if result.Problem != 0 {
		f := importFailed(result)
		f.Message = truncate(f.Message, maxMessageLength)
		return failedStatus(network, result.Network.ID, f)
	}
	imported := outcome{net: result.Network, subnets: []itemSubnet{{item: "", subnet: result.Subnet}}, complete: true}
	return realizedStatus(network, imported, samplecrdv1.ReasonImported,
		fmt.Sprintf("Imported Neutron network %s with subnet %s (%s)", result.Network.ID, result.Subnet.ID, result.Subnet.Summary()))
}

// RecheckImports looks at every import of a project with one list of the networks its
// credentials can see (and one of their subnets), and hands each imported Network whose
// status no longer tells the truth, with what was found, to enqueue: its worker records
// it without a lookup of its own. It returns how many it handed over.
func (r *Reconciler) RecheckImports(ctx context.Context, project credentials.Project, networks []*samplecrdv1.Network, enqueue func(cache.ObjectName)) int {
	logger := klog.FromContext(ctx)
	refs := make([]neutron.ImportRef, 0, len(networks))
	for _, network := range networks {
		refs = append(refs, ImportRef(network))
	}
	visible, err := project.Store.ListVisible(ctx, refs)
	if err != nil {
		logger.Info("Skipping the imports of a project until the next Neutron resync", "place", project.Place.String(), "err", err)
		return 0
	}
	queued := 0
	for _, network := range networks {
		if c := network.ReadyCondition(); c != nil && c.Reason == samplecrdv1.ReasonNotGranted {
			// Refused before any lookup; a grant, not Neutron, changes that.
			continue
		}
		result := visible.Resolve(ImportRef(network))
		if equality.Semantic.DeepEqual(network.Status, *importedStatus(network, result)) {
			continue
		}
		logger.V(2).Info("Imported Neutron network changed", "network", klog.KObj(network), "networkID", result.Network.ID, "problem", result.Message)
		r.findings.put(network, project.Place, result)
		enqueue(cache.MetaObjectToName(network))
		queued++
	}
	return queued
}

// ImportSettled reports whether an imported Network's last look, for its generation, got
// through its credentials to Neutron's answer: Ready, or one of an import's problems. The
// resync looks at those again; the others wait for their retry, or for their spec or
// Secret to change.
func ImportSettled(network *samplecrdv1.Network) bool {
	c := network.ReadyCondition()
	if network.DeletionTimestamp != nil || c == nil || c.ObservedGeneration != network.Generation {
		return false
	}
	if c.Reason == samplecrdv1.ReasonImported {
		return true
	}
	for _, reason := range importProblems {
		if c.Reason == reason {
			return true
		}
	}
	return false
}

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
