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
	stale := map[neutron.Place]bool{}
	for _, p := range c.tenants.Projects() {
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
	imports := map[neutron.Place][]*samplecrdv1.Network{}
	for _, network := range objects {
		live[string(network.UID)] = true
		drift := ""
		store, place, resolved := c.tenants.CachedFor(cache.MetaObjectToName(network), network.Spec.CloudCredentialsRef == nil)
		switch {
		case !resolved || stale[place]:
		case network.IsImported():
			if importSettled(network) {
				imports[place] = append(imports[place], network)
			}
		case c.pinnedTo(network, place):
			drift = c.driftOf(network, store)
		}
		if drift != "" {
			c.recorder.Event(network, corev1.EventTypeWarning, reasonNeutronDrift, drift)
		}
		if drift != "" || needsRetry(network) {
			c.workqueue.addFor(cache.MetaObjectToName(network), fairqueue.Resync)
			requeued++
		}
	}
	collected, halted, imported := 0, 0, 0
	for _, p := range filled {
		n, stopped := c.collectOrphans(ctx, p, live)
		collected += n
		if stopped {
			halted++
		}
		if nets := imports[p.Place]; len(nets) > 0 {
			imported += len(nets)
			requeued += c.recheckImports(ctx, logger, p, nets)
		}
	}
	c.metrics.SetOrphanCollectionHalted(halted)
	logger.V(2).Info("Neutron resync done", "projects", len(filled), "neutronNetworks", c.tenants.Len(), "networks", len(objects),
		"imports", imported, "requeued", requeued, "orphansCollected", collected, "orphanCollectionHalted", halted)
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

// pinnedTo reports whether the Network's resources are in place: its credentials still
// lead where they were made. A Network whose credentials moved is refused by its own sync
// and repaired by none.
func (c *Controller) pinnedTo(network *samplecrdv1.Network, place neutron.Place) bool {
	pinned, ok := c.pinnedPlace(network)
	return ok && pinned.ProjectID == place.ProjectID && (pinned.Region == "" || pinned.Region == place.Region)
}

// driftOf says how what store holds differs from a Ready Network's spec and status, or
// "". It asks Neutron nothing: the store was just filled.
func (c *Controller) driftOf(network *samplecrdv1.Network, store *neutron.Store) string {
	if network.DeletionTimestamp != nil || !network.IsReady() {
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
