package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// resyncNeutron compares what Neutron holds with the Network objects, project by project.
// Informer events only say when the cluster changes; this catches changes made on the
// Neutron side: it refills each project's Store, requeues every Network whose Neutron side
// no longer matches it (or whose retry was lost), deletes this cluster's Neutron
// networks whose Network object no longer exists, and looks at the imported networks again.
func (c *Controller) resyncNeutron(ctx context.Context) {
	logger := klog.FromContext(ctx).WithName("neutron-resync")
	var filled []tenancy.Project
	stale := map[string]bool{}
	for _, p := range c.tenants.Projects() {
		if err := p.Store.Fill(ctx); err != nil {
			logger.Info("Skipping Neutron resync of a project", "projectID", p.ID, "err", err)
			stale[p.ID] = true
			continue
		}
		filled = append(filled, p)
	}
	if len(filled) == 0 {
		return
	}
	c.metrics.SetManagedNetworks(c.tenants.Len())
	// Listed after Neutron, so a Network created meanwhile is not mistaken for missing
	// resources' owner the other way round: its Neutron side is simply not seen yet.
	var objects []*samplecrdv1.Network
	for _, obj := range c.networks.List() {
		if network, ok := obj.(*samplecrdv1.Network); ok {
			objects = append(objects, network)
		}
	}

	requeued := 0
	live := make(map[string]bool, len(objects))
	imports := map[string][]*samplecrdv1.Network{} // by project
	for _, network := range objects {
		live[string(network.UID)] = true
		drift := ""
		switch project, ok := c.pinnedProject(network); {
		case network.IsImported():
			if importSettled(network) {
				imports[network.Status.ProjectID] = append(imports[network.Status.ProjectID], network)
			}
		case ok && !stale[project]:
			drift = c.driftOf(network, project)
		}
		if drift != "" {
			c.recorder.Event(network, corev1.EventTypeWarning, reasonNeutronDrift, drift)
		}
		if drift != "" || needsRetry(network) {
			c.workqueue.addFor(cache.MetaObjectToName(network), fairqueue.Resync)
			requeued++
		}
	}
	collected, imported := 0, 0
	for _, p := range filled {
		collected += c.collectOrphans(ctx, p, live)
		if nets := imports[p.ID]; len(nets) > 0 {
			imported += len(nets)
			requeued += c.recheckImports(ctx, logger, p, nets)
		}
	}
	logger.V(2).Info("Neutron resync done", "projects", len(filled), "neutronNetworks", c.tenants.Len(), "networks", len(objects),
		"imports", imported, "requeued", requeued, "orphansCollected", collected)
}

// needsRetry reports whether a Network is unfinished in a way a lost retry could leave
// it: not Ready for its generation, or being deleted with the finalizer still on.
func needsRetry(network *samplecrdv1.Network) bool {
	if network.DeletionTimestamp != nil {
		return slices.Contains(network.Finalizers, samplecrdv1.FinalizerName)
	}
	// Rejected as it stands: only a spec change, which the informer reports, can help.
	return !network.IsReady() && !network.IsRejected()
}

// driftOf says how what the store of the Network's project holds differs from a Ready
// Network's spec and status, or "". It asks Neutron nothing: the store was just filled.
func (c *Controller) driftOf(network *samplecrdv1.Network, projectID string) string {
	if network.DeletionTimestamp != nil || !network.IsReady() {
		return ""
	}
	store, ok := c.tenants.Cached(projectID)
	if !ok {
		return ""
	}
	desired, err := desiredOf(network)
	if err != nil {
		return ""
	}
	rec := recordedOf(network)
	observed := store.Cached(neutronOwner(network, c.config.ClusterID), rec)
	changes := neutron.Diff(desired, observed)

	var drift []string
	add := func(format string, args ...any) { drift = append(drift, fmt.Sprintf(format, args...)) }
	if n := len(changes.DeleteNetworks); n > 0 {
		add("%d Neutron networks belong to this Network; deleting all but %s", n+1, observed.Network.ID)
	}
	if observed.Network == nil {
		add("Neutron network %s was deleted outside the controller; recreating it", rec.NetworkID)
		return strings.Join(drift, "; ")
	}
	if observed.Network.ID != rec.NetworkID {
		add("Neutron network %s was deleted outside the controller; keeping %s", rec.NetworkID, observed.Network.ID)
	}
	if len(changes.NetworkDiffs) > 0 {
		add("Neutron network %s was changed outside the controller; restoring %s", observed.Network.ID, neutron.Describe(changes.NetworkDiffs))
	}
	if n := len(changes.DeleteSubnets); n > 0 {
		add("%d Neutron subnets of this Network are on network %s; deleting all but %s", n+1, observed.Network.ID, observed.Subnet.ID)
	}
	switch {
	case observed.Subnet == nil:
		add("Neutron subnet %s was deleted outside the controller; recreating it", rec.SubnetID)
	case changes.Immutable != "":
		add("%s", changes.Immutable)
	default:
		if observed.Subnet.ID != rec.SubnetID {
			add("Neutron subnet %s was deleted outside the controller; keeping %s", rec.SubnetID, observed.Subnet.ID)
		}
		if len(changes.SubnetDiffs) > 0 {
			add("Neutron subnet %s was changed outside the controller; restoring %s", observed.Subnet.ID, neutron.Describe(changes.SubnetDiffs))
		}
	}
	return strings.Join(drift, "; ")
}

// collectOrphans deletes this cluster's Neutron networks in the project whose Network UID
// is not live, once they are older than the grace period, and returns how many it
// collected. A network whose tags say its Network's deletion policy was Retain (its
// finalizer was removed by hand) is released instead: kept, without the cluster's marks.
func (c *Controller) collectOrphans(ctx context.Context, project tenancy.Project, live map[string]bool) int {
	logger := klog.FromContext(ctx).WithName("orphan-collector").WithValues("projectID", project.ID)
	store := project.Store
	collected := 0
	for _, uid := range store.Owners() {
		if live[uid] {
			continue
		}
		for _, n := range store.CachedNetworks(uid) {
			if namespace, ok := neutron.OwnerNamespace(n); !c.config.Namespaces.All() && (!ok || !c.config.Namespaces.Contains(namespace)) {
				logger.V(4).Info("Leaving a network of a namespace this controller does not watch", "networkID", n.ID, "name", n.Name)
				continue
			}
			if age := c.now().Sub(n.CreatedAt); age < c.config.OrphanGracePeriod {
				logger.V(4).Info("Leaving young orphan for a later resync", "networkID", n.ID, "age", age)
				continue
			}
			if n.Description != neutron.ClusterDescription(c.config.ClusterID) {
				// Being released by its Network's finalizer: never deleted.
				continue
			}
			if neutron.Retained(n) {
				if c.releaseOrphan(ctx, logger, store, uid, n) {
					collected++
				}
				continue
			}
			if err := store.DeleteNetwork(ctx, n.ID); err != nil {
				logger.Info("Could not delete orphaned Neutron network; will retry at the next resync", "networkID", n.ID, "name", n.Name, "err", err)
				continue
			}
			logger.Info("Deleted orphaned Neutron network: its Network object no longer exists", "networkID", n.ID, "name", n.Name, "ownerUID", uid)
			c.metrics.OrphanCollected()
			collected++
		}
	}
	return collected
}

// releaseOrphan releases an orphaned network whose Network's deletion policy was Retain
// and reports whether it did.
func (c *Controller) releaseOrphan(ctx context.Context, logger klog.Logger, store *neutron.Store, uid string, n neutron.Network) bool {
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
	c.metrics.OrphanReleased()
	return true
}
