package main

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// recheckImports looks at every import of a project with one list of the networks its
// credentials can see (and one of their subnets), and queues each imported Network whose
// status no longer tells the truth, with what was found: the worker records it without a
// lookup of its own. It returns how many it queued.
func (c *Controller) recheckImports(ctx context.Context, logger klog.Logger, project tenancy.Project, networks []*samplecrdv1.Network) int {
	refs := make([]neutron.ImportRef, 0, len(networks))
	for _, network := range networks {
		refs = append(refs, importRefOf(network))
	}
	visible, err := project.Store.ListVisible(ctx, refs)
	if err != nil {
		logger.Info("Skipping the imports of a project until the next Neutron resync", "projectID", project.ID, "err", err)
		return 0
	}
	queued := 0
	for _, network := range networks {
		result := visible.Resolve(importRefOf(network), network.Status.NetworkID)
		if equality.Semantic.DeepEqual(network.Status, *importStatusOf(network, result)) {
			continue
		}
		logger.V(2).Info("Imported Neutron network changed", "network", klog.KObj(network), "networkID", result.Network.ID, "problem", result.Message)
		c.importFindings.put(network, project.ID, result)
		c.workqueue.Add(cache.MetaObjectToName(network))
		queued++
	}
	return queued
}

// rechecked reports whether the resync looks at an imported Network's import: one whose
// last look, for its generation, got through its credentials to Neutron's answer. The
// others wait for their retry, or for their spec or Secret to change.
func rechecked(network *samplecrdv1.Network) bool {
	c := network.ReadyCondition()
	if network.DeletionTimestamp != nil || c == nil || c.ObservedGeneration != network.Generation {
		return false
	}
	_, importReason := importReasonSet[c.Reason]
	return c.Reason == samplecrdv1.ReasonImported || importReason
}

// importReasonSet holds the Ready reasons of an import's problems.
var importReasonSet = func() map[string]struct{} {
	set := map[string]struct{}{}
	for _, reason := range importReasons {
		set[reason] = struct{}{}
	}
	return set
}()

// importFindings hands what the Neutron resync found for an import to the worker that
// records it. A finding is for one object, generation and project: anything else is
// looked up again.
type importFindings struct {
	mu    sync.Mutex
	byKey map[cache.ObjectName]importFinding
}

type importFinding struct {
	uid        types.UID
	generation int64
	projectID  string
	result     neutron.ImportResult
}

func (f *importFindings) put(network *samplecrdv1.Network, projectID string, result neutron.ImportResult) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byKey == nil {
		f.byKey = map[cache.ObjectName]importFinding{}
	}
	f.byKey[cache.MetaObjectToName(network)] = importFinding{uid: network.UID, generation: network.Generation, projectID: projectID, result: result}
}

// take returns, and forgets, the finding for the Network as it is now, in projectID.
func (f *importFindings) take(network *samplecrdv1.Network, projectID string) (neutron.ImportResult, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := cache.MetaObjectToName(network)
	found, ok := f.byKey[key]
	delete(f.byKey, key)
	if !ok || found.uid != network.UID || found.generation != network.Generation || found.projectID != projectID {
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
