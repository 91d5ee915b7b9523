package resync

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// The orphan collection's circuit breaker. Crashes and forced removals leave an orphan
// now and then; many at once is what a reused cluster ID looks like (an etcd restore, a
// copied -cluster-id), and then the "orphans" are a live cluster's networks. So a pass
// that finds more orphans in a project than max(orphanBreakerMin, orphanBreakerPercent% of
// the networks it holds there) collects none of them there, and says why.
const (
	// reasonOrphanCollectionHalted is the Event on Config.EventTarget when the breaker stops a pass.
	reasonOrphanCollectionHalted = "OrphanCollectionHalted"

	orphanBreakerMin     = 10
	orphanBreakerPercent = 10
)

// orphan is a network of this cluster whose Network object does not exist.
type orphan struct {
	ownerUID string
	network  neutron.Network
}

// orphanLimit is the most orphans one pass collects in a project holding held networks.
func orphanLimit(held int) int {
	return max(orphanBreakerMin, held*orphanBreakerPercent/100)
}

// collectOrphans deletes this cluster's Neutron networks in the project whose Network UID
// is not live, once they are older than the grace period, and returns how many it
// collected and whether the breaker stopped it. A network whose tags say its Network's
// deletion policy was Retain (its finalizer was removed by hand) is released instead:
// kept, without the cluster's marks.
func (s *Resyncer) collectOrphans(ctx context.Context, project tenancy.Project, live map[string]bool) (collected int, halted bool) {
	logger := klog.FromContext(ctx).WithName("orphan-collector").WithValues("place", project.Place.String())
	store := project.Store
	orphans := s.orphansIn(logger, store, live)
	if limit := orphanLimit(store.Len()); len(orphans) > limit {
		s.haltOrphanCollection(logger, project, len(orphans), store.Len(), limit)
		return 0, true
	}
	for _, o := range orphans {
		n := o.network
		if neutron.Retained(n) {
			if s.releaseOrphan(ctx, logger, store, o.ownerUID, n) {
				collected++
			}
			continue
		}
		if err := store.DeleteNetwork(ctx, o.ownerUID, n.ID); err != nil {
			logger.Info("Could not delete orphaned Neutron network; will retry at the next resync", "networkID", n.ID, "name", n.Name, "err", err)
			continue
		}
		logger.Info("Deleted orphaned Neutron network: its Network object no longer exists", "networkID", n.ID, "name", n.Name, "ownerUID", o.ownerUID)
		s.cfg.Metrics.OrphanCollected()
		collected++
	}
	return collected, false
}

// orphansIn returns the networks of store that the collection may take: of no live
// Network, of a watched namespace, past the grace period, and still carrying the
// cluster's description (a network without it is being released by its Network).
func (s *Resyncer) orphansIn(logger klog.Logger, store *neutronstore.Store, live map[string]bool) []orphan {
	var out []orphan
	for _, uid := range store.Owners() {
		if live[uid] {
			continue
		}
		for _, n := range store.CachedNetworks(uid) {
			if namespace, ok := neutron.OwnerNamespace(n); !s.cfg.Namespaces.All() && (!ok || !s.cfg.Namespaces.Contains(namespace)) {
				logger.V(4).Info("Leaving a network of a namespace this controller does not watch", "networkID", n.ID, "name", n.Name)
				continue
			}
			if age := s.cfg.Now().Sub(n.CreatedAt); age < s.cfg.OrphanGracePeriod {
				logger.V(4).Info("Leaving young orphan for a later resync", "networkID", n.ID, "age", age)
				continue
			}
			if n.Description != neutron.ClusterDescription(s.cfg.ClusterID) {
				continue
			}
			out = append(out, orphan{ownerUID: uid, network: n})
		}
	}
	return out
}

// haltOrphanCollection says, in the log and an Event on the controller's own object, why
// the pass collected nothing in the project.
func (s *Resyncer) haltOrphanCollection(logger klog.Logger, project tenancy.Project, orphans, held, limit int) {
	logger.Info("Orphan collection halted: more orphans than one pass may collect; is this cluster ID shared with another cluster (an etcd restore, a copied -cluster-id)?",
		"orphans", orphans, "networks", held, "limit", limit, "clusterID", s.cfg.ClusterID)
	if s.cfg.EventTarget != nil {
		s.cfg.Recorder.Eventf(s.cfg.EventTarget, corev1.EventTypeWarning, reasonOrphanCollectionHalted,
			"Orphan collection halted in %s: %d of its %d networks of cluster ID %s have no Network object, more than one pass may collect (%d). "+
				"If another cluster uses this cluster ID (an etcd restore, a copied -cluster-id), give this controller its own; "+
				"if they really are orphans, delete them by hand (openstack network list --tags %s)",
			project.Place, orphans, held, s.cfg.ClusterID, limit, neutron.ClusterTag(s.cfg.ClusterID))
	}
}

// releaseOrphan releases an orphaned network whose Network's deletion policy was Retain
// and reports whether it did.
func (s *Resyncer) releaseOrphan(ctx context.Context, logger klog.Logger, store *neutronstore.Store, uid string, n neutron.Network) bool {
	released, err := store.Release(ctx, uid, n)
	if err != nil {
		logger.Info("Could not release orphaned Neutron network; will retry at the next resync", "networkID", n.ID, "name", n.Name, "err", err)
		return false
	}
	if released.Network.ID == "" {
		return false // deleted in Neutron meanwhile
	}
	logger.Info("Released orphaned Neutron network: its Network object, whose deletionPolicy was Retain, no longer exists; kept it without this cluster's marks",
		"networkID", n.ID, "name", released.Network.Name, "subnets", len(released.Subnets), "ownerUID", uid)
	s.cfg.Metrics.OrphanReleased()
	return true
}
