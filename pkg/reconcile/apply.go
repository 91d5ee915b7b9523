package reconcile

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// pass is one reconcile of one live Network: the Network, the store of its project, the
// owner its Neutron resources are marked with, what its spec asks for, what Neutron holds,
// and the changes from the one to the other, which its methods carry out.
type pass struct {
	network  *samplecrdv1.Network
	store    *neutron.Store
	owner    neutron.Owner
	desired  neutron.Desired
	observed neutron.Observed
	changes  neutron.Changes
	recorder record.EventRecorder
}

// apply carries out the changes through the project's Store, network first, and returns
// the network and subnet that realise the spec. Each change is logged and recorded as an
// Event. On failure net is still the network when one exists, so that status can name it.
func (p *pass) apply(ctx context.Context) (net neutron.Network, subnet neutron.Subnet, err error) {
	if p.observed.Adopted {
		klog.FromContext(ctx).Info("Adopted Neutron network left untagged by an interrupted create", "networkID", p.observed.Network.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkAdopted,
			"Adopted Neutron network %s left untagged by an interrupted create", p.observed.Network.ID)
	}

	for _, dup := range p.changes.DeleteNetworks {
		p.recordDuplicateDeleted(ctx, "network", dup.ID, p.observed.Network.ID, p.store.DeleteNetwork(ctx, p.owner.UID, dup.ID))
	}
	if net, err = p.applyNetwork(ctx); err != nil {
		return net, neutron.Subnet{}, err
	}

	for _, dup := range p.changes.DeleteSubnets {
		p.recordDuplicateDeleted(ctx, "subnet", dup.ID, p.observed.Subnet.ID, p.store.DeleteSubnet(ctx, dup))
	}
	subnet, err = p.applySubnet(ctx, net.ID)
	return net, subnet, err
}

func (p *pass) applyNetwork(ctx context.Context) (neutron.Network, error) {
	changes, observed := p.changes, p.observed
	switch {
	case changes.CreateNetwork:
		created, err := p.store.CreateNetwork(ctx, p.owner, p.desired.Network)
		if err != nil {
			return neutron.Network{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron network", "networkID", created.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkCreated, "Created Neutron network %s", created.ID)
		return created, nil
	case len(changes.NetworkDiffs) > 0:
		updated := *observed.Network
		var err error
		if changes.UpdateNetwork != (neutron.NetworkAttrs{}) {
			if updated, err = p.store.UpdateNetwork(ctx, p.owner, updated.ID, changes.UpdateNetwork); err != nil {
				return *observed.Network, err
			}
		}
		if changes.RetagNetwork {
			if updated, err = p.store.SetDeletionPolicy(ctx, p.owner, updated, p.desired.Network.Retain); err != nil {
				return *observed.Network, err
			}
		}
		what := neutron.Describe(changes.NetworkDiffs)
		klog.FromContext(ctx).Info("Updated Neutron network", "networkID", updated.ID, "changes", what)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkUpdated, "Changed Neutron network %s: %s", updated.ID, what)
		return updated, nil
	}
	return *observed.Network, nil
}

func (p *pass) applySubnet(ctx context.Context, networkID string) (neutron.Subnet, error) {
	changes, observed := p.changes, p.observed
	switch {
	case changes.CreateSubnet:
		created, err := p.store.CreateSubnet(ctx, p.owner, networkID, p.desired.Subnet)
		if err != nil {
			return neutron.Subnet{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron subnet", "subnetID", created.ID, "cidr", created.CIDR, "gateway", created.GatewayIP)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetCreated, "Created Neutron subnet %s (%s)", created.ID, created.Summary())
		return created, nil
	case len(changes.SubnetDiffs) > 0:
		updated, err := p.store.UpdateSubnet(ctx, *observed.Subnet, changes.UpdateSubnet)
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
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reason, "Changed Neutron subnet %s: %s", updated.ID, what)
		return updated, nil
	}
	return *observed.Subnet, nil
}

// recordDuplicateDeleted records the outcome of deleting what a split brain made twice. A
// failure is left for the next run: a duplicate does not hold up the one kept.
func (p *pass) recordDuplicateDeleted(ctx context.Context, kind, id, keptID string, err error) {
	if err != nil {
		klog.FromContext(ctx).Error(err, "Could not delete duplicate Neutron "+kind+"; will retry", "id", id)
		return
	}
	p.recorder.Eventf(p.network, corev1.EventTypeWarning, reasonDuplicateDeleted, "Deleted duplicate Neutron %s %s (kept %s)", kind, id, keptID)
}
