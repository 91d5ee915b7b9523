package main

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// reconcile brings Neutron in line with a live Network. The steps are ordered so that a
// crash between any two of them is repaired by the next run: the finalizer goes on before
// anything exists in Neutron, and every create is preceded by a lookup that adopts what an
// interrupted run left behind.
func (c *Controller) reconcile(ctx context.Context, network *samplecrdv1.Network) error {
	network, err := c.ensureFinalizer(ctx, network)
	if err != nil {
		return err
	}

	plan, err := subnetplan.Plan(network.Spec.CIDR, network.Spec.Gateway)
	if err != nil {
		// The CRD's validation rules normally stop such a spec at the door; this guards
		// against a CRD installed without them.
		return c.fail(ctx, network, &invalidSpecError{err: err})
	}

	owner := c.ownerOf(network)
	net, err := c.ensureNetwork(ctx, network, owner)
	if err != nil {
		return c.fail(ctx, network, err)
	}
	if network.Status.NetworkID != net.ID {
		// Record the ID at once, so status tells what exists even if the subnet fails.
		status := network.Status.DeepCopy()
		status.NetworkID = net.ID
		setReady(status, network.Generation, metav1.ConditionFalse, samplecrdv1.ReasonProvisioning,
			fmt.Sprintf("Neutron network %s exists; creating its subnet", net.ID))
		if network, err = c.writeStatus(ctx, network, status); err != nil {
			return err
		}
	}

	subnet, err := c.ensureSubnet(ctx, network, owner, net.ID, plan)
	if err != nil {
		return c.fail(ctx, network, err)
	}

	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	status.NetworkID = net.ID
	status.SubnetID = subnet.ID
	status.Gateway = subnet.GatewayIP
	wasReady := isReady(&network.Status, network.Generation)
	setReady(status, network.Generation, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned,
		fmt.Sprintf("Neutron network %s with subnet %s (%s, gateway %s)", net.ID, subnet.ID, subnet.CIDR, subnet.GatewayIP))
	if _, err := c.writeStatus(ctx, network, status); err != nil {
		return err
	}
	if !wasReady {
		klog.FromContext(ctx).Info("Network is ready", "networkID", net.ID, "subnetID", subnet.ID)
		c.recorder.Eventf(network, "Normal", samplecrdv1.ReasonProvisioned,
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
	if slices.Contains(network.Finalizers, finalizerName) {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Finalizers = append(updated.Finalizers, finalizerName)
	updated, err := c.client.SamplecrdV1().Networks(network.Namespace).Update(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, fmt.Errorf("adding finalizer to Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Added finalizer")
	return updated, nil
}

// ensureNetwork returns the owner's Neutron network, creating it only after making sure
// no earlier run created it already.
func (c *Controller) ensureNetwork(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner) (neutron.Network, error) {
	logger := klog.FromContext(ctx)

	tagged, err := c.neutron.ListNetworks(ctx, neutron.Filter{Tags: owner.Tags()})
	if err != nil {
		return neutron.Network{}, err
	}
	if len(tagged) > 0 {
		keep := oldestNetwork(tagged)
		c.deleteDuplicateNetworks(ctx, network, tagged, keep)
		return keep, nil
	}

	// A run that died between the create and the tag call left a network that only its
	// description identifies. Finish that run's work instead of creating a second one.
	untagged, err := c.neutron.ListNetworks(ctx, neutron.Filter{Description: owner.Description()})
	if err != nil {
		return neutron.Network{}, err
	}
	if len(untagged) > 0 {
		adopted := oldestNetwork(untagged)
		if err := c.neutron.SetNetworkTags(ctx, adopted.ID, owner.Tags()); err != nil {
			return neutron.Network{}, err
		}
		logger.Info("Adopted Neutron network left by an interrupted create", "networkID", adopted.ID)
		c.recorder.Eventf(network, "Normal", "NetworkAdopted", "Adopted Neutron network %s left by an interrupted create", adopted.ID)
		return adopted, nil
	}

	created, err := c.neutron.CreateNetwork(ctx, owner.ResourceName(), owner.Description())
	if err != nil {
		return neutron.Network{}, err
	}
	testHook(hookNetworkCreated)
	if err := c.neutron.SetNetworkTags(ctx, created.ID, owner.Tags()); err != nil {
		return neutron.Network{}, err
	}
	testHook(hookNetworkTagged)
	logger.Info("Created Neutron network", "networkID", created.ID)
	c.recorder.Eventf(network, "Normal", "NetworkCreated", "Created Neutron network %s", created.ID)
	return created, nil
}

// deleteDuplicateNetworks removes networks that carry the same owner tags as keep. Only a
// split brain between two controllers of one cluster can make them; left alone they leak.
func (c *Controller) deleteDuplicateNetworks(ctx context.Context, network *samplecrdv1.Network, nets []neutron.Network, keep neutron.Network) {
	for _, n := range nets {
		if n.ID == keep.ID {
			continue
		}
		if err := c.deleteNeutronNetwork(ctx, n.ID); err != nil {
			klog.FromContext(ctx).Error(err, "Could not delete duplicate Neutron network; will retry", "networkID", n.ID)
			continue
		}
		c.recorder.Eventf(network, "Warning", "DuplicateDeleted", "Deleted duplicate Neutron network %s (kept %s)", n.ID, keep.ID)
	}
}

// ensureSubnet returns the owner's subnet on networkID, created or corrected to match plan.
func (c *Controller) ensureSubnet(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner, networkID string, plan subnetplan.Subnet) (neutron.Subnet, error) {
	subnet, found, err := c.findSubnet(ctx, network, owner, networkID)
	if err != nil {
		return neutron.Subnet{}, err
	}
	if !found {
		return c.createSubnet(ctx, network, owner, networkID, plan)
	}

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
		return neutron.Subnet{}, err
	}
	klog.FromContext(ctx).Info("Updated Neutron subnet gateway", "subnetID", subnet.ID, "from", subnet.GatewayIP, "to", updated.GatewayIP)
	c.recorder.Eventf(network, "Normal", "GatewayUpdated", "Changed gateway of Neutron subnet %s from %s to %s",
		subnet.ID, displayGateway(subnet.GatewayIP), updated.GatewayIP)
	return updated, nil
}

// findSubnet looks the owner's subnet up by tags, then by the description an interrupted
// create leaves, tagging what it adopts.
func (c *Controller) findSubnet(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner, networkID string) (neutron.Subnet, bool, error) {
	tagged, err := c.neutron.ListSubnets(ctx, neutron.Filter{Tags: owner.Tags(), NetworkID: networkID})
	if err != nil {
		return neutron.Subnet{}, false, err
	}
	if len(tagged) > 0 {
		return tagged[0], true, nil
	}
	untagged, err := c.neutron.ListSubnets(ctx, neutron.Filter{Description: owner.Description(), NetworkID: networkID})
	if err != nil || len(untagged) == 0 {
		return neutron.Subnet{}, false, err
	}
	adopted := untagged[0]
	if err := c.neutron.SetSubnetTags(ctx, adopted.ID, owner.Tags()); err != nil {
		return neutron.Subnet{}, false, err
	}
	klog.FromContext(ctx).Info("Adopted Neutron subnet left by an interrupted create", "subnetID", adopted.ID)
	c.recorder.Eventf(network, "Normal", "SubnetAdopted", "Adopted Neutron subnet %s left by an interrupted create", adopted.ID)
	return adopted, true, nil
}

func (c *Controller) createSubnet(ctx context.Context, network *samplecrdv1.Network, owner neutron.Owner, networkID string, plan subnetplan.Subnet) (neutron.Subnet, error) {
	created, err := c.neutron.CreateSubnet(ctx, neutron.SubnetRequest{
		NetworkID:       networkID,
		Name:            owner.ResourceName(),
		Description:     owner.Description(),
		CIDR:            plan.CIDR.String(),
		IPVersion:       plan.IPVersion,
		GatewayIP:       plan.Gateway.String(),
		AllocationPools: toNeutronPools(plan.AllocationPools),
	})
	if err != nil {
		return neutron.Subnet{}, err
	}
	if err := c.neutron.SetSubnetTags(ctx, created.ID, owner.Tags()); err != nil {
		return neutron.Subnet{}, err
	}
	klog.FromContext(ctx).Info("Created Neutron subnet", "subnetID", created.ID, "cidr", created.CIDR, "gateway", created.GatewayIP)
	c.recorder.Eventf(network, "Normal", "SubnetCreated", "Created Neutron subnet %s (%s, gateway %s)", created.ID, created.CIDR, created.GatewayIP)
	return created, nil
}

func oldestNetwork(nets []neutron.Network) neutron.Network {
	return slices.MinFunc(nets, func(a, b neutron.Network) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
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
