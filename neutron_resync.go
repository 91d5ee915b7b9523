package main

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// resyncNeutron compares what Neutron holds with the Network objects. Informer events only
// say when the cluster changes; this catches changes made on the Neutron side: it requeues
// every Network whose network or subnet vanished or drifted, and deletes this cluster's
// Neutron networks whose Network object no longer exists.
func (c *Controller) resyncNeutron(ctx context.Context) {
	logger := klog.FromContext(ctx).WithName("neutron-resync")
	ours := neutron.Filter{Tags: []string{neutron.ClusterTag(c.config.ClusterID)}}

	// Two list calls for the whole cluster, whatever the number of Networks.
	nets, err := c.neutron.ListNetworks(ctx, ours)
	if err != nil {
		logger.Info("Skipping Neutron resync: cannot list networks", "err", err)
		return
	}
	subnets, err := c.neutron.ListSubnets(ctx, ours)
	if err != nil {
		logger.Info("Skipping Neutron resync: cannot list subnets", "err", err)
		return
	}
	c.metrics.SetManagedNetworks(len(nets))

	// Listed after Neutron, so a Network created meanwhile is not mistaken for missing
	// resources' owner the other way round: its Neutron side is simply not seen yet.
	objects, err := c.networksLister.List(labels.Everything())
	if err != nil {
		logger.Error(err, "Skipping Neutron resync: cannot list Networks from the informer cache")
		return
	}

	state := indexNeutron(nets, subnets)
	requeued := 0
	live := make(map[string]bool, len(objects))
	for _, network := range objects {
		live[string(network.UID)] = true
		if c.needsResync(network, state) {
			c.workqueue.Add(cache.MetaObjectToName(network))
			requeued++
		}
	}
	collected := c.collectOrphans(ctx, nets, live)
	logger.V(2).Info("Neutron resync done", "neutronNetworks", len(nets), "networks", len(objects),
		"requeued", requeued, "orphansCollected", collected)
}

// neutronState is this cluster's Neutron resources indexed for the resync.
type neutronState struct {
	networksByOwner  map[string][]neutron.Network
	subnetsByNetwork map[string][]neutron.Subnet
}

func indexNeutron(nets []neutron.Network, subnets []neutron.Subnet) neutronState {
	s := neutronState{networksByOwner: map[string][]neutron.Network{}, subnetsByNetwork: map[string][]neutron.Subnet{}}
	for _, n := range nets {
		if uid, ok := neutron.OwnerUID(n.Tags); ok {
			s.networksByOwner[uid] = append(s.networksByOwner[uid], n)
		}
	}
	for _, sub := range subnets {
		s.subnetsByNetwork[sub.NetworkID] = append(s.subnetsByNetwork[sub.NetworkID], sub)
	}
	return s
}

// needsResync says whether a Network must be reconciled again, and records an Event when
// a Network that was Ready drifted because of a change made in Neutron.
func (c *Controller) needsResync(network *samplecrdv1.Network, state neutronState) bool {
	if network.DeletionTimestamp != nil {
		// A deletion blocked by ports is retried by backoff already; this also covers
		// one whose retry was lost with a restarted controller.
		return slices.Contains(network.Finalizers, finalizerName)
	}
	if isTerminal(&network.Status, network.Generation) {
		// Rejected as it stands: only a spec change, which the informer reports, can help.
		return false
	}
	if !isReady(&network.Status, network.Generation) {
		return true
	}
	drift := driftOf(network, state)
	if drift == "" {
		return false
	}
	c.recorder.Event(network, "Warning", "NeutronDrift", drift)
	return true
}

// driftOf describes how Neutron differs from a Ready Network's status and spec, or "".
func driftOf(network *samplecrdv1.Network, state neutronState) string {
	nets := state.networksByOwner[string(network.UID)]
	idx := slices.IndexFunc(nets, func(n neutron.Network) bool { return n.ID == network.Status.NetworkID })
	if idx < 0 {
		return fmt.Sprintf("Neutron network %s was deleted outside the controller; recreating it", network.Status.NetworkID)
	}
	subs := state.subnetsByNetwork[network.Status.NetworkID]
	idx = slices.IndexFunc(subs, func(s neutron.Subnet) bool { return s.ID == network.Status.SubnetID })
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
func (c *Controller) collectOrphans(ctx context.Context, nets []neutron.Network, live map[string]bool) int {
	logger := klog.FromContext(ctx).WithName("orphan-collector")
	collected := 0
	for _, n := range nets {
		uid, ok := neutron.OwnerUID(n.Tags)
		if !ok || live[uid] {
			continue
		}
		if age := c.now().Sub(n.CreatedAt); age < c.config.OrphanGracePeriod {
			logger.V(4).Info("Leaving young orphan for a later resync", "networkID", n.ID, "age", age)
			continue
		}
		if err := c.deleteNeutronNetwork(ctx, n.ID); err != nil {
			logger.Info("Could not delete orphaned Neutron network; will retry at the next resync", "networkID", n.ID, "name", n.Name, "err", err)
			continue
		}
		logger.Info("Deleted orphaned Neutron network: its Network object no longer exists", "networkID", n.ID, "name", n.Name, "ownerUID", uid)
		c.metrics.OrphanCollected()
		collected++
	}
	return collected
}
