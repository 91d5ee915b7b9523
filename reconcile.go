package main

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/crashpoint"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// reconcile brings Neutron in line with a live Network, deciding from the index of this
// cluster's Neutron resources: a Network whose status, spec and index entry agree costs
// no Neutron call and no API write.
//
// A create is POST network, PUT its tags, POST subnet, then one status write. The steps
// are ordered so that a crash, or a reply lost on the way back, between any two of them is
// repaired by the next run without creating anything twice:
//
//   - Fresh create: the finalizer goes on before any Neutron call. An object that had no
//     finalizer therefore has nothing in Neutron, so the index marks its owner absent and
//     the create needs no lookup first.
//   - Crash after POST network, before tagging: the create request gave the network the
//     cluster's description and the owner's name, so the next process's index fill (a list
//     by the cluster's description) has it, with its owner read from the name. The run
//     tags it and continues: no lookup, nothing created twice.
//   - Crash after tagging, before the subnet or the status write: the same fill has the
//     network and its subnet, if one was made; the run continues from there.
//   - Takeover from a previous leader that may still have had a create in flight: the old
//     leader's create may land after the new leader's fill. An object with the finalizer
//     and no indexed network is therefore looked up by its exact name before anything is
//     created. A create that lands even after that makes a second network of the owner;
//     the next Neutron resync lists it (tagged or not, by the cluster's description) and
//     the duplicate is deleted: the one status names, or the oldest, is kept.
//   - A write Neutron applied whose reply was lost (502, reset, timeout): a create that
//     fails without a definite answer makes the index forget what it knew (the owner's
//     absence, or the network's subnet list), so the retry lists by name, or the network's
//     subnets, before creating again. Updates and deletes are idempotent and are simply
//     sent again.
func (c *Controller) reconcile(ctx context.Context, network *samplecrdv1.Network) error {
	hadFinalizer := slices.Contains(network.Finalizers, samplecrdv1.FinalizerName)
	network, err := c.ensureFinalizer(ctx, network)
	if err != nil {
		return err
	}
	owner := c.ownerOf(network)
	if !hadFinalizer {
		// No run before this one called Neutron for this object.
		c.index.SetAbsent(owner.UID)
	}

	plan, err := subnetplan.Plan(network.Spec.CIDR, network.Spec.Gateway)
	if err != nil {
		// The CRD's validation rules normally stop such a spec at the door; this guards
		// against a CRD installed without them.
		return c.recordFailure(ctx, network, "", &invalidSpecError{err: err})
	}

	net, err := c.ensureNetwork(ctx, network, owner)
	if err != nil {
		return c.recordFailure(ctx, network, "", err)
	}
	subnet, err := c.ensureSubnet(ctx, network, owner, net.ID, plan)
	if err != nil {
		// The status names the network, so it tells what exists while the subnet waits.
		return c.recordFailure(ctx, network, net.ID, err)
	}

	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	status.NetworkID = net.ID
	status.SubnetID = subnet.ID
	status.Gateway = subnet.GatewayIP
	wasReady := network.IsReady()
	setReady(status, network.Generation, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned,
		fmt.Sprintf("Neutron network %s with subnet %s (%s, gateway %s)", net.ID, subnet.ID, subnet.CIDR, subnet.GatewayIP))
	if _, err := c.writeStatus(ctx, network, status); err != nil {
		return err
	}
	if !wasReady {
		klog.FromContext(ctx).Info("Network is ready", "networkID", net.ID, "subnetID", subnet.ID)
		c.recorder.Eventf(network, corev1.EventTypeNormal, samplecrdv1.ReasonProvisioned,
			"Neutron network %s and subnet %s match the spec", net.ID, subnet.ID)
	}
	return nil
}

// ownerOf names the Network a Neutron resource belongs to.
func (c *Controller) ownerOf(network *samplecrdv1.Network) neutron.Owner {
	return neutron.Owner{
		ClusterID: c.config.ClusterID,
		Namespace: network.Namespace,
		Name:      network.Name,
		UID:       string(network.UID),
	}
}

// ensureFinalizer adds the finalizer before the first Neutron call, so no Neutron resource
// can exist for an object that could disappear without cleanup.
func (c *Controller) ensureFinalizer(ctx context.Context, network *samplecrdv1.Network) (*samplecrdv1.Network, error) {
	if slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Finalizers = append(updated.Finalizers, samplecrdv1.FinalizerName)
	updated, err := c.client.SamplecrdV1().Networks(network.Namespace).Update(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, fmt.Errorf("adding finalizer to Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Added finalizer")
	return updated, nil
}

// ensureNetwork returns the owner's tagged Neutron network, creating it only when the
// index proves that none exists or a list by the owner's name found none.
func (c *Controller) ensureNetwork(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner) (neutron.Network, error) {
	nets := c.index.Networks(owner.UID)
	if len(nets) == 0 && !c.index.Absent(owner.UID) {
		found, err := neutron.OwnedNetworks(ctx, c.neutron, owner)
		if err != nil {
			return neutron.Network{}, err
		}
		for _, n := range found {
			c.index.PutNetwork(owner.UID, n, false)
		}
		if len(found) == 0 {
			c.index.SetAbsent(owner.UID)
		}
		nets = c.index.Networks(owner.UID)
	}
	if len(nets) > 0 {
		keep := keepOne(ctx, c, network, "network", nets, network.Status.NetworkID,
			func(ctx context.Context, n neutron.Network) error { return c.deleteNetwork(ctx, n.ID) })
		if owner.HasTags(keep.Tags) {
			return keep, nil
		}
		adopted, err := c.tagNetwork(ctx, owner, keep)
		if err != nil {
			return neutron.Network{}, err
		}
		klog.FromContext(ctx).Info("Adopted Neutron network left untagged by an interrupted create", "networkID", adopted.ID)
		c.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkAdopted,
			"Adopted Neutron network %s left untagged by an interrupted create", adopted.ID)
		return adopted, nil
	}

	created, err := c.neutron.CreateNetwork(ctx, owner.ResourceName(), neutron.ClusterDescription(owner.ClusterID))
	if err != nil {
		if outcomeUnknown(err) {
			c.index.ForgetAbsence(owner.UID)
		}
		return neutron.Network{}, err
	}
	// Indexed before tagging: if the tag call fails, the retry tags this network.
	c.index.PutNetwork(owner.UID, created, true)
	crashpoint.Reached(crashpoint.NetworkCreated)
	tagged, err := c.tagNetwork(ctx, owner, created)
	if err != nil {
		return neutron.Network{}, err
	}
	crashpoint.Reached(crashpoint.NetworkTagged)
	klog.FromContext(ctx).Info("Created Neutron network", "networkID", created.ID)
	c.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkCreated, "Created Neutron network %s", created.ID)
	return tagged, nil
}

// tagNetwork gives n the owner's tags.
func (c *Controller) tagNetwork(ctx context.Context, owner neutron.Owner, n neutron.Network) (neutron.Network, error) {
	if err := c.neutron.SetNetworkTags(ctx, n.ID, owner.Tags()); err != nil {
		if neutron.IsNotFound(err) {
			c.index.RemoveNetwork(n.ID)
		}
		return neutron.Network{}, err
	}
	n.Tags = owner.Tags()
	c.index.PutNetwork(owner.UID, n, false)
	return n, nil
}

// keepOne returns the resource to keep among an owner's networks, or among the subnets on
// its network, and deletes the others. Only a split brain between two controllers of one
// cluster makes more than one; left alone they leak. The one the status names (statusID)
// wins, else the oldest (items come oldest first).
func keepOne[T interface{ GetID() string }](ctx context.Context, c *Controller, network *samplecrdv1.Network,
	kind string, items []T, statusID string, deleteOne func(context.Context, T) error) T {
	keep := items[0]
	if i := slices.IndexFunc(items, func(r T) bool { return r.GetID() == statusID }); i >= 0 {
		keep = items[i]
	}
	for _, r := range items {
		if r.GetID() == keep.GetID() {
			continue
		}
		if err := deleteOne(ctx, r); err != nil {
			klog.FromContext(ctx).Error(err, "Could not delete duplicate Neutron "+kind+"; will retry", "id", r.GetID())
			continue
		}
		c.recorder.Eventf(network, corev1.EventTypeWarning, reasonDuplicateDeleted, "Deleted duplicate Neutron %s %s (kept %s)", kind, r.GetID(), keep.GetID())
	}
	return keep
}

// ensureSubnet returns the owner's subnet on networkID, created or corrected to match plan.
func (c *Controller) ensureSubnet(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner, networkID string, plan subnetplan.Subnet) (neutron.Subnet, error) {
	var statusSubnetID string
	if network.Status.NetworkID == networkID {
		statusSubnetID = network.Status.SubnetID
	}
	subnets, err := c.subnetsOf(ctx, owner, networkID, statusSubnetID)
	if err != nil {
		return neutron.Subnet{}, err
	}
	if len(subnets) == 0 {
		return c.createSubnet(ctx, network, owner, networkID, plan)
	}
	subnet := keepOne(ctx, c, network, "subnet", subnets, network.Status.SubnetID, c.deleteSubnet)

	if current, err := netip.ParsePrefix(subnet.CIDR); err != nil || current != plan.CIDR {
		// Neutron cannot change a subnet's range, and the API forbids changing spec.cidr.
		return neutron.Subnet{}, &invalidSpecError{err: fmt.Errorf(
			"Neutron subnet %s has CIDR %s but spec.cidr is %s; cidr cannot change: delete and recreate the Network",
			subnet.ID, subnet.CIDR, plan.CIDR)}
	}
	if current, err := netip.ParseAddr(subnet.GatewayIP); err == nil && current == plan.Gateway {
		return subnet, nil
	}

	updated, err := c.neutron.UpdateSubnetGateway(ctx, subnet.ID, plan.Gateway.String(), toNeutronPools(plan.AllocationPools))
	if err != nil {
		if neutron.IsNotFound(err) {
			c.index.RemoveSubnet(networkID, subnet.ID)
		}
		return neutron.Subnet{}, err
	}
	c.index.PutSubnet(updated)
	klog.FromContext(ctx).Info("Updated Neutron subnet gateway", "subnetID", subnet.ID, "from", subnet.GatewayIP, "to", updated.GatewayIP)
	c.recorder.Eventf(network, corev1.EventTypeNormal, reasonGatewayUpdated, "Changed gateway of Neutron subnet %s from %s to %s",
		subnet.ID, displayGateway(subnet.GatewayIP), updated.GatewayIP)
	return updated, nil
}

// subnetsOf returns the owner's subnets on its network networkID, from the index when it
// knows them all, else listed (one call) and remembered. An empty list does not count as
// known while status names a subnet on this network: that subnet was deleted in Neutron
// since the last fill, or the index missed it, and a blind create could collide with it.
func (c *Controller) subnetsOf(ctx context.Context, owner neutron.Owner, networkID, statusSubnetID string) ([]neutron.Subnet, error) {
	if subnets, known := c.index.Subnets(networkID); known && (len(subnets) > 0 || statusSubnetID == "") {
		return subnets, nil
	}
	listed, err := c.neutron.ListSubnets(ctx, neutron.Filter{NetworkID: networkID})
	if err != nil {
		return nil, err
	}
	ours := slices.DeleteFunc(listed, func(s neutron.Subnet) bool {
		return s.Description != neutron.ClusterDescription(owner.ClusterID)
	})
	c.index.SetSubnets(networkID, ours)
	subnets, _ := c.index.Subnets(networkID)
	return subnets, nil
}

func (c *Controller) createSubnet(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner, networkID string, plan subnetplan.Subnet) (neutron.Subnet, error) {
	created, err := c.neutron.CreateSubnet(ctx, neutron.SubnetRequest{
		NetworkID:       networkID,
		Name:            owner.ResourceName(),
		Description:     neutron.ClusterDescription(owner.ClusterID),
		CIDR:            plan.CIDR.String(),
		IPVersion:       plan.IPVersion,
		GatewayIP:       plan.Gateway.String(),
		AllocationPools: toNeutronPools(plan.AllocationPools),
	})
	if err != nil {
		switch {
		case outcomeUnknown(err):
			c.index.ForgetSubnets(networkID)
		case neutron.IsNotFound(err):
			// The network went away under us (deleted in Neutron); the retry recreates it.
			c.index.RemoveNetwork(networkID)
		}
		return neutron.Subnet{}, err
	}
	c.index.PutSubnet(created)
	klog.FromContext(ctx).Info("Created Neutron subnet", "subnetID", created.ID, "cidr", created.CIDR, "gateway", created.GatewayIP)
	c.recorder.Eventf(network, corev1.EventTypeNormal, reasonSubnetCreated, "Created Neutron subnet %s (%s, gateway %s)", created.ID, created.CIDR, created.GatewayIP)
	return created, nil
}

// deleteSubnet deletes one subnet of the owner's network and drops it from the index.
func (c *Controller) deleteSubnet(ctx context.Context, s neutron.Subnet) error {
	if err := c.neutron.DeleteSubnet(ctx, s.ID); err != nil {
		return err
	}
	c.index.RemoveSubnet(s.NetworkID, s.ID)
	return nil
}

// outcomeUnknown reports whether a failed create may have been carried out all the same:
// Neutron gave no definite answer (no reply, a reset connection, a timeout or a 5xx).
func outcomeUnknown(err error) bool {
	return neutron.KindOf(err) == neutron.KindUnavailable
}

func toNeutronPools(pools []subnetplan.Pool) []neutron.Pool {
	out := make([]neutron.Pool, 0, len(pools))
	for _, p := range pools {
		out = append(out, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
	}
	return out
}

func displayGateway(gw string) string {
	if gw == "" {
		return "none"
	}
	return gw
}
