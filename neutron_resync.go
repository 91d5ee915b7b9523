package main

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// fillIndex lists this cluster's Neutron networks and subnets by the cluster's description
// and refills the index from them: two calls, whatever the number of Networks. The lists
// include networks never tagged, whose create was interrupted or came from a deposed leader.
func (c *Controller) fillIndex(ctx context.Context) error {
	since := c.index.Revision()
	nets, subnets, err := neutron.ClusterResources(ctx, c.neutron, c.config.ClusterID)
	if err != nil {
		return err
	}
	c.index.Refill(since, nets, subnets)
	c.metrics.SetManagedNetworks(c.index.Len())
	return nil
}

// resyncNeutron compares what Neutron holds with the Network objects. Informer events only
// say when the cluster changes; this catches changes made on the Neutron side: it refills
// the index, requeues every Network whose network or subnet vanished, drifted or was
// duplicated, and deletes this cluster's Neutron networks whose Network object no longer
// exists.
func (c *Controller) resyncNeutron(ctx context.Context) {
	logger := klog.FromContext(ctx).WithName("neutron-resync")
	if err := c.fillIndex(ctx); err != nil {
		logger.Info("Skipping Neutron resync", "err", err)
		return
	}
	// Listed after Neutron, so a Network created meanwhile is not mistaken for missing
	// resources' owner the other way round: its Neutron side is simply not seen yet.
	objects, err := c.networksLister.List(labels.Everything())
	if err != nil {
		logger.Error(err, "Skipping Neutron resync: cannot list Networks from the informer cache")
		return
	}

	requeued := 0
	live := make(map[string]bool, len(objects))
	for _, network := range objects {
		live[string(network.UID)] = true
		drift := c.driftOf(network)
		if drift != "" {
			c.recorder.Event(network, corev1.EventTypeWarning, reasonNeutronDrift, drift)
		}
		if drift != "" || needsRetry(network) {
			c.workqueue.Add(cache.MetaObjectToName(network))
			requeued++
		}
	}
	collected := c.collectOrphans(ctx, live)
	logger.V(2).Info("Neutron resync done", "neutronNetworks", c.index.Len(), "networks", len(objects),
		"requeued", requeued, "orphansCollected", collected)
}

// needsRetry reports whether a Network is unfinished in a way a lost retry could leave
// it: not Ready for its generation, or being deleted with the finalizer still on.
func needsRetry(network *samplecrdv1.Network) bool {
	if network.DeletionTimestamp != nil {
		return slices.Contains(network.Finalizers, samplecrdv1.FinalizerName)
	}
	if isTerminal(&network.Status, network.Generation) {
		// Rejected as it stands: only a spec change, which the informer reports, can help.
		return false
	}
	return !network.IsReady()
}

// driftOf describes how the index differs from a Ready Network's status and spec, or "".
func (c *Controller) driftOf(network *samplecrdv1.Network) string {
	if network.DeletionTimestamp != nil || !network.IsReady() {
		return ""
	}
	nets := c.index.Networks(string(network.UID))
	if len(nets) > 1 {
		return fmt.Sprintf("%d Neutron networks belong to this Network; deleting all but %s", len(nets), network.Status.NetworkID)
	}
	if !slices.ContainsFunc(nets, func(n neutron.Network) bool { return n.ID == network.Status.NetworkID }) {
		return fmt.Sprintf("Neutron network %s was deleted outside the controller; recreating it", network.Status.NetworkID)
	}
	subs, _ := c.index.Subnets(network.Status.NetworkID)
	idx := slices.IndexFunc(subs, func(s neutron.Subnet) bool { return s.ID == network.Status.SubnetID })
	if idx < 0 {
		return fmt.Sprintf("Neutron subnet %s was deleted outside the controller; recreating it", network.Status.SubnetID)
	}
	plan, err := subnetplan.Plan(network.Spec.CIDR, network.Spec.Gateway)
	if err != nil {
		return ""
	}
	if gw, err := netip.ParseAddr(subs[idx].GatewayIP); err != nil || gw != plan.Gateway {
		return fmt.Sprintf("gateway of Neutron subnet %s was changed outside the controller to %s; restoring %s",
			subs[idx].ID, displayGateway(subs[idx].GatewayIP), plan.Gateway)
	}
	return ""
}

// collectOrphans deletes this cluster's Neutron networks whose Network UID is not live,
// once they are older than the grace period, and returns how many it deleted.
func (c *Controller) collectOrphans(ctx context.Context, live map[string]bool) int {
	logger := klog.FromContext(ctx).WithName("orphan-collector")
	collected := 0
	for _, uid := range c.index.Owners() {
		if live[uid] {
			continue
		}
		for _, n := range c.index.Networks(uid) {
			if age := c.now().Sub(n.CreatedAt); age < c.config.OrphanGracePeriod {
				logger.V(4).Info("Leaving young orphan for a later resync", "networkID", n.ID, "age", age)
				continue
			}
			if err := c.deleteNetwork(ctx, n.ID); err != nil {
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
