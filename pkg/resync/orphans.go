package resync

import (
	"context"

	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// orphan is a network of this cluster whose Network object does not exist.
type orphan struct {
	ownerUID string
	network  neutron.Network
}

// collectOrphans deletes this cluster's Neutron networks in the project whose Network UID
// is not live, once they are older than the grace period, and returns how many it
// collected and whether the breaker stopped it there, for some namespaces or all
// (breaker.go). A network whose tags say its Network's deletion policy was Retain (its
// finalizer was removed by hand) is released instead: kept, without the cluster's marks.
func (s *Resyncer) collectOrphans(ctx context.Context, project credentials.Project, live map[string]bool, owned scope.Owned) (collected int, halted bool) {
	logger := klog.FromContext(ctx).WithName("orphan-collector").WithValues("place", project.Place.String())
	store := project.Store
	v := judge(store, s.orphansIn(logger, store, live, owned))
	if v.stopped() {
		s.haltOrphanCollection(logger, project, v)
	}
	for _, o := range v.collect {
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
	return collected, v.stopped()
}

// orphansIn returns the networks of store that the collection may take: of no live
// Network, of an owned namespace, past the grace period, and still carrying the
// cluster's description (a network without it is being released by its Network).
func (s *Resyncer) orphansIn(logger klog.Logger, store *neutronstore.Store, live map[string]bool, owned scope.Owned) []orphan {
	var out []orphan
	for _, uid := range store.Owners() {
		if live[uid] {
			continue
		}
		for _, n := range store.CachedNetworks(uid) {
			if namespace, ok := neutron.OwnerNamespace(n); !owned.All() && (!ok || !owned.Owns(namespace)) {
				logger.V(4).Info("Leaving a network of a namespace this replica does not act for", "networkID", n.ID, "name", n.Name)
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
