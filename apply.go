package main

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// apply carries out changes through the project's Store, network first, and returns the network and
// subnet that realise the spec. Each change is logged and recorded as an Event. On failure
// net is still the network when one exists, so that status can name it.
func (c *Controller) apply(ctx context.Context, store *neutron.Store, network *samplecrdv1.Network, owner neutron.Owner,
	desired neutron.Desired, observed neutron.Observed, changes neutron.Changes) (net neutron.Network, subnet neutron.Subnet, err error) {
	if observed.Adopted {
		klog.FromContext(ctx).Info("Adopted Neutron network left untagged by an interrupted create", "networkID", observed.Network.ID)
		c.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkAdopted,
			"Adopted Neutron network %s left untagged by an interrupted create", observed.Network.ID)
	}

	for _, dup := range changes.DeleteNetworks {
		c.recordDuplicateDeleted(ctx, network, "network", dup.ID, observed.Network.ID, store.DeleteNetwork(ctx, owner.UID, dup.ID))
	}
	if net, err = c.applyNetwork(ctx, store, network, owner, desired, observed, changes); err != nil {
		return net, neutron.Subnet{}, err
	}

	for _, dup := range changes.DeleteSubnets {
		c.recordDuplicateDeleted(ctx, network, "subnet", dup.ID, observed.Subnet.ID, store.DeleteSubnet(ctx, dup))
	}
	subnet, err = c.applySubnet(ctx, store, network, owner, net.ID, desired, observed, changes)
	return net, subnet, err
}

func (c *Controller) applyNetwork(ctx context.Context, store *neutron.Store, network *samplecrdv1.Network, owner neutron.Owner,
	desired neutron.Desired, observed neutron.Observed, changes neutron.Changes) (neutron.Network, error) {
	switch {
	case changes.CreateNetwork:
		created, err := store.CreateNetwork(ctx, owner, desired.Network)
		if err != nil {
			return neutron.Network{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron network", "networkID", created.ID)
		c.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkCreated, "Created Neutron network %s", created.ID)
		return created, nil
	case len(changes.NetworkDiffs) > 0:
		updated := *observed.Network
		var err error
		if changes.UpdateNetwork != (neutron.NetworkAttrs{}) {
			if updated, err = store.UpdateNetwork(ctx, owner, updated.ID, changes.UpdateNetwork); err != nil {
				return *observed.Network, err
			}
		}
		if changes.RetagNetwork {
			if updated, err = store.SetDeletionPolicy(ctx, owner, updated, desired.Network.Retain); err != nil {
				return *observed.Network, err
			}
		}
		what := neutron.Describe(changes.NetworkDiffs)
		klog.FromContext(ctx).Info("Updated Neutron network", "networkID", updated.ID, "changes", what)
		c.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkUpdated, "Changed Neutron network %s: %s", updated.ID, what)
		return updated, nil
	}
	return *observed.Network, nil
}

func (c *Controller) applySubnet(ctx context.Context, store *neutron.Store, network *samplecrdv1.Network, owner neutron.Owner, networkID string,
	desired neutron.Desired, observed neutron.Observed, changes neutron.Changes) (neutron.Subnet, error) {
	switch {
	case changes.CreateSubnet:
		created, err := store.CreateSubnet(ctx, owner, networkID, desired.Subnet)
		if err != nil {
			return neutron.Subnet{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron subnet", "subnetID", created.ID, "cidr", created.CIDR, "gateway", created.GatewayIP)
		c.recorder.Eventf(network, corev1.EventTypeNormal, reasonSubnetCreated, "Created Neutron subnet %s (%s)", created.ID, created.Summary())
		return created, nil
	case len(changes.SubnetDiffs) > 0:
		updated, err := store.UpdateSubnet(ctx, *observed.Subnet, changes.UpdateSubnet)
		if err != nil {
			return neutron.Subnet{}, err
		}
		what := neutron.Describe(changes.SubnetDiffs)
		// A new gateway is what people look for, in the log as in Events.
		reason, logged := reasonSubnetUpdated, "Updated Neutron subnet"
		if slices.ContainsFunc(changes.SubnetDiffs, func(d neutron.Difference) bool { return d.Attribute == "gateway" }) {
			reason, logged = reasonGatewayUpdated, "Updated Neutron subnet gateway"
		}
		klog.FromContext(ctx).Info(logged, "subnetID", updated.ID, "changes", what)
		c.recorder.Eventf(network, corev1.EventTypeNormal, reason, "Changed Neutron subnet %s: %s", updated.ID, what)
		return updated, nil
	}
	return *observed.Subnet, nil
}

// recordDuplicateDeleted records the outcome of deleting what a split brain made twice. A
// failure is left for the next run: a duplicate does not hold up the one kept.
func (c *Controller) recordDuplicateDeleted(ctx context.Context, network *samplecrdv1.Network, kind, id, keptID string, err error) {
	if err != nil {
		klog.FromContext(ctx).Error(err, "Could not delete duplicate Neutron "+kind+"; will retry", "id", id)
		return
	}
	c.recorder.Eventf(network, corev1.EventTypeWarning, reasonDuplicateDeleted, "Deleted duplicate Neutron %s %s (kept %s)", kind, id, keptID)
}
