package resync

import (
	"context"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Resyncer compares what Neutron holds with the Network objects now and then: informer
// events only say when the cluster changes, this catches changes made on the Neutron
// side. It decides what needs a sync and hands it to the Network controller's queue; it
// writes nothing of a Network itself but Events.
type Resyncer struct {
	cfg Config
	// due holds when each Network's drift check is due, on grids anchored at anchor.
	due    *dueQueue
	anchor time.Time
}

// Config holds what a Resyncer works with.
type Config struct {
	Tenants  *credentials.Tenants
	Networks *scope.Informers
	// Imports looks at a project's imports again.
	Imports  *reconcile.Reconciler
	Recorder record.EventRecorder
	Metrics  *metrics.Metrics
	// Enqueue hands a Network to the Network controller's workers.
	Enqueue func(cache.ObjectName)
	// Checked tells the pass that Enqueue starts for a drift check when its project was
	// listed (reconcile.Reconciler.Checked).
	Checked func(cache.ObjectName, time.Time)
	// DefaultPeriod is the drift check period of a Network without one of its own; 0:
	// such Networks are not checked.
	DefaultPeriod time.Duration
	// ClusterID is the one in the ownership marks of this cluster's Neutron resources.
	ClusterID string
	// Namespaces are the namespaces watched (empty: all): the delegated projects of
	// their grants are visited.
	Namespaces scope.Namespaces
	// Ownership says which namespaces' orphans this replica collects: those of the
	// watched namespaces (nil) or, with shards, of the shards it holds. Orphans of
	// Networks in other namespaces are left alone: another controller or replica may
	// manage those.
	Ownership *scope.Ownership
	// OrphanGracePeriod protects young Neutron networks from orphan collection, so a
	// create whose object is not in the informer cache yet is never collected.
	OrphanGracePeriod time.Duration
	// EventTarget is the object Events about the controller itself, not about one
	// Network, are recorded on (the leader election Lease); nil: only the log has them.
	EventTarget runtime.Object
	// Now is the clock of the grace period; nil means time.Now.
	Now func() time.Time
}

// New returns a Resyncer working with cfg.
func New(cfg Config) *Resyncer {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Ownership == nil {
		cfg.Ownership = scope.NewOwnership(cfg.Namespaces, 0)
	}
	s := &Resyncer{cfg: cfg, due: newDueQueue(), anchor: cfg.Now()}
	cfg.Metrics.ExportFullSubnets(s.subnetUse)
	return s
}

// Once is the sweep over every project: informer events only say when the cluster
// changes, this catches what happens on the Neutron side. It refills each project's
// Store, requeues every Network whose retry was lost or whose addresses changed, deletes
// this cluster's Neutron networks whose Network object no longer exists, and looks at the
// imported networks again. Drift is left to each Network's check (CheckDue), which the
// sweep's lists serve when it falls due with them.
func (s *Resyncer) Once(ctx context.Context) {
	logger := klog.FromContext(ctx).WithName("neutron-resync")
	owned := s.cfg.Ownership.Now()
	if owned.None() {
		// A replica that holds no shard acts for no Network: nothing to compare.
		return
	}
	// The projects ClusterIdentities delegate are visited even when no Network uses them.
	s.cfg.Tenants.ReachDelegated(klog.NewContext(ctx, logger), s.cfg.Namespaces)
	var filled []credentials.Project
	stale := map[neutron.Place]bool{}
	for _, p := range s.cfg.Tenants.Projects() {
		if err := p.Store.Fill(ctx); err != nil {
			logger.Info("Skipping Neutron resync of a project", "place", p.Place.String(), "err", err)
			stale[p.Place] = true
			continue
		}
		filled = append(filled, p)
	}
	if len(filled) == 0 {
		return
	}
	s.cfg.Metrics.SetManagedNetworks(s.cfg.Tenants.Len())
	// Listed after Neutron, so a Network created meanwhile is not mistaken for missing
	// resources' owner the other way round: its Neutron side is simply not seen yet.
	var objects []*samplecrdv1.Network
	for _, obj := range s.cfg.Networks.List() {
		if network, ok := obj.(*samplecrdv1.Network); ok {
			objects = append(objects, network)
		}
	}
	// Only what was owned before and after the list: a shard taken meanwhile had its
	// Networks missing from the list, and one given up had them gone from the cache.
	owned = owned.Within(s.cfg.Ownership.Now())

	s.countAddresses(ctx, filled, stale, objects)

	requeued := 0
	live := make(map[string]bool, len(objects))
	imports := map[neutron.Place][]*samplecrdv1.Network{}
	for _, network := range objects {
		live[string(network.UID)] = true
		if reconcile.IsPaused(network) {
			// Neither repaired nor looked at again until it resumes, which queues it.
			continue
		}
		store, place, resolved := s.cfg.Tenants.CachedFor(cache.MetaObjectToName(network), network.Spec.CloudCredentialsRef == nil)
		if resolved && !stale[place] && network.IsImported() && reconcile.ImportSettled(network) {
			imports[place] = append(imports[place], network)
		}
		// Drift is each Network's own check's (CheckDue), on its own period.
		if needsRetry(network) || (resolved && !stale[place] && addressesChanged(network, store)) {
			s.cfg.Enqueue(cache.MetaObjectToName(network))
			requeued++
		}
	}
	collected, halted, imported := 0, 0, 0
	for _, p := range filled {
		n, stopped := s.collectOrphans(ctx, p, live, owned)
		collected += n
		if stopped {
			halted++
		}
		if nets := imports[p.Place]; len(nets) > 0 {
			imported += len(nets)
			requeued += s.cfg.Imports.RecheckImports(klog.NewContext(ctx, logger), p, nets, s.cfg.Enqueue)
		}
	}
	s.cfg.Metrics.SetOrphanCollectionHalted(halted)
	logger.V(2).Info("Neutron resync done", "projects", len(filled), "neutronNetworks", s.cfg.Tenants.Len(), "networks", len(objects),
		"imports", imported, "requeued", requeued, "orphansCollected", collected, "orphanCollectionHalted", halted)
}

// lookedAgain are the terminal reasons of a Neutron resource the spec names that the
// project did not see (or saw several of): each resync tries them again, as the resource
// may be there now.
var lookedAgain = []string{samplecrdv1.ReasonRouterNotFound, samplecrdv1.ReasonReferenceNotFound, samplecrdv1.ReasonReferenceAmbiguous}

// needsRetry reports whether a Network is unfinished in a way a lost retry could leave
// it: not Ready for its generation, or being deleted with the finalizer still on. A
// Network whose router, or another resource it names, was not found is looked at again
// too: it may be there now.
func needsRetry(network *samplecrdv1.Network) bool {
	if network.DeletionTimestamp != nil {
		return slices.Contains(network.Finalizers, samplecrdv1.FinalizerName)
	}
	if c := network.ReadyCondition(); c != nil && slices.Contains(lookedAgain, c.Reason) {
		return true
	}
	// Rejected as it stands: only a spec change, which the informer reports, can help.
	return !network.IsReady() && !network.IsRejected()
}
