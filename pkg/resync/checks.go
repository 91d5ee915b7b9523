package resync

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	listers "github.com/samplecrd/network-controller/pkg/client/listers/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Each Network's drift check falls due on its own period (spec.driftCheck.period, or
// Config.DefaultPeriod), on a grid anchored when the Resyncer was made, so that the
// checks of one period fall due together. A check lists the project's resources, unless
// a list at or after the check's due time serves it already (the sweep's, or another
// Network's check in the same project), and hands the Network to a pass with the time
// of that list: one list per project for every check falling due together.

// WatchChecks schedules the drift check of every Network the informers hold, and again
// whenever one changes; it is called once, before the informers start.
func (s *Resyncer) WatchChecks() error {
	return s.cfg.Networks.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { s.schedule(obj) },
		UpdateFunc: func(_, obj any) { s.schedule(obj) },
		DeleteFunc: func(obj any) {
			if key, err := cache.DeletionHandlingObjectToName(obj); err == nil {
				s.due.remove(key)
			}
		},
	})
}

// schedule sets when the Network's next check is due: one period after its last
// comparison with Neutron (status.lastSyncTime; its creation before the first), on the
// period's grid. A Network without a period (none of its own, no default) is not checked.
func (s *Resyncer) schedule(obj any) {
	network, ok := obj.(*samplecrdv1.Network)
	if !ok {
		return
	}
	key := cache.MetaObjectToName(network)
	period := network.DriftCheckPeriod(s.cfg.DefaultPeriod)
	if period <= 0 || network.IsImported() {
		s.due.remove(key)
		return
	}
	last := network.CreationTimestamp.Time
	if network.Status.LastSyncTime != nil {
		last = network.Status.LastSyncTime.Time
	}
	s.due.schedule(key, nextCheckAfter(last, period, s.anchor))
}

// Run compares Neutron with the Networks until ctx is done: each Network's drift check
// when it falls due, and every sweepPeriod (0: never) the sweep of Once, on the same
// grid, so that a sweep and the checks due with it share one list of each project.
func (s *Resyncer) Run(ctx context.Context, sweepPeriod time.Duration) {
	var nextSweep time.Time
	if sweepPeriod > 0 {
		nextSweep = nextCheckAfter(s.cfg.Now(), sweepPeriod, s.anchor)
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		wakeAt := nextSweep
		if at, ok := s.due.next(); ok && (wakeAt.IsZero() || at.Before(wakeAt)) {
			wakeAt = at
		}
		wait := time.Hour
		if !wakeAt.IsZero() {
			wait = max(wakeAt.Sub(s.cfg.Now()), 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.due.wake:
			continue
		case <-timer.C:
		}
		now := s.cfg.Now()
		if !nextSweep.IsZero() && !now.Before(nextSweep) {
			s.Once(ctx)
			nextSweep = nextCheckAfter(now, sweepPeriod, s.anchor)
		}
		s.CheckDue(ctx, now)
	}
}

// CheckDue runs the checks due at now: per project, one list when the store's last one
// is older than the earliest check due, then a pass for each Network with the list's
// time (reconcile.Reconciler.Checked), and a NeutronDrift Event for drift a pass will
// repair. It returns how many projects it listed.
func (s *Resyncer) CheckDue(ctx context.Context, now time.Time) int {
	due := s.due.takeDue(now)
	if len(due) == 0 {
		return 0
	}
	logger := klog.FromContext(ctx).WithName("drift-check")
	owned := s.cfg.Ownership.Now()
	type project struct {
		store    *neutronstore.Store
		place    neutron.Place
		earliest time.Time
		networks []*samplecrdv1.Network
	}
	var order []*project
	byStore := map[*neutronstore.Store]*project{}
	for _, d := range due {
		network, err := listers.NewNetworkLister(s.cfg.Networks.Indexer(d.key.Namespace)).Networks(d.key.Namespace).Get(d.key.Name)
		if err != nil {
			// Gone from the cache: deleted, its check with it.
			continue
		}
		// Not compared now: looked at again one period on, not at once, as its last
		// comparison is as old as it was.
		later := nextCheckAfter(now, network.DriftCheckPeriod(s.cfg.DefaultPeriod), s.anchor)
		if !checkable(network, owned) {
			s.due.schedule(d.key, later)
			continue
		}
		store, place, resolved := s.cfg.Tenants.CachedFor(d.key, network.Spec.CloudCredentialsRef == nil)
		if !resolved {
			// Its credentials were not reached since the start: its first pass does, and
			// compares it with Neutron then.
			s.due.schedule(d.key, later)
			continue
		}
		p := byStore[store]
		if p == nil {
			p = &project{store: store, place: place, earliest: d.at}
			byStore[store] = p
			order = append(order, p)
		}
		p.networks = append(p.networks, network)
	}
	listed := 0
	for _, p := range order {
		if p.store.FilledAt().Before(p.earliest) {
			if err := p.store.Fill(ctx); err != nil {
				logger.Info("Skipping the drift checks of a project: listing its Neutron resources failed", "place", p.place.String(), "networks", len(p.networks), "err", err)
				for _, network := range p.networks {
					s.due.schedule(cache.MetaObjectToName(network), nextCheckAfter(now, network.DriftCheckPeriod(s.cfg.DefaultPeriod), s.anchor))
				}
				continue
			}
			listed++
		}
		listedAt := p.store.FilledAt()
		for _, network := range p.networks {
			key := cache.MetaObjectToName(network)
			if network.DriftPolicy() == samplecrdv1.DriftRepair && credentials.PinnedTo(network, p.place, s.cfg.Tenants.OwnPlace()) {
				if drift := driftOf(network, p.store, s.cfg.ClusterID); drift != "" {
					s.cfg.Recorder.Event(network, corev1.EventTypeWarning, reasonNeutronDrift, drift)
				}
			}
			s.cfg.Checked(key, listedAt)
			s.cfg.Enqueue(key)
			s.due.schedule(key, nextCheckAfter(listedAt, network.DriftCheckPeriod(s.cfg.DefaultPeriod), s.anchor))
		}
	}
	logger.V(2).Info("Drift checks done", "networks", len(due), "projects", len(order), "listed", listed)
	return listed
}

// checkable reports whether a check compares the Network now: one this replica acts for,
// not being deleted, neither paused (nothing is looked at until it resumes) nor an import
// (looked at again by the sweep).
func checkable(network *samplecrdv1.Network, owned scope.Owned) bool {
	return network.DeletionTimestamp == nil && !network.IsImported() && !reconcile.IsPaused(network) && owned.Owns(network.Namespace)
}
