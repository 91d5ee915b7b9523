package reconcile

import (
	"cmp"
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// pass is one reconcile of one live Network: the Network, the store of its project, the
// owner its Neutron resources are marked with, what its spec asks for, what Neutron holds,
// and the changes from the one to the other, which its methods carry out.
type pass struct {
	network  *samplecrdv1.Network
	store    *neutronstore.Store
	owner    neutron.Owner
	desired  neutron.Desired
	observed neutron.Observed
	changes  neutron.Changes
	recorder record.EventRecorder
	// powers are what the namespace may do in the project; withheld what the spec asks
	// for beyond them, taken out of desired; kept what is in effect beyond them and stays
	// (grants_enforcement.go), as enforcement says.
	powers      grants.Powers
	enforcement grants.Enforcement
	withheld    []string
	kept        []keptPower
	// What withhold took out, for keepInEffect, and whether the existing router stays
	// as it is, without a grant.
	ungrantedRetain bool
	ungrantedShares []string
	routerKeptAsIs  bool
	// admitRouter says whether the Network may have a router of its own, and the
	// namespace's bound when it may not.
	admitRouter func() (bool, int)
}

// itemSubnet is the subnet of one item of the spec ("" for the one-subnet form).
type itemSubnet struct {
	item   string
	subnet neutron.Subnet
	// addresses are as last counted; nil when the subnet was not counted yet.
	addresses *neutron.Addresses
}

// outcome is what a pass leaves in Neutron: the network, and the subnet of each item in
// the spec's order, then those of removed items that ports still use. complete says the
// subnets are all there are; a pass cut off half way does not know.
type outcome struct {
	net      neutron.Network
	subnets  []itemSubnet
	complete bool
	// shares are the RBAC policies that share the network, by project.
	shares []neutron.RBACPolicy
	// router is the router the subnets are attached to; nil for none.
	router *routerOutcome
}

// apply carries out the changes through the project's Store, network first, and returns
// the network and subnets that realise the spec. Each change is logged and recorded as an
// Event. On failure the outcome still names the network when one exists, so that status
// can name it.
func (p *pass) apply(ctx context.Context) (out outcome, err error) {
	if p.observed.Adopted {
		klog.FromContext(ctx).Info("Adopted Neutron network left untagged by an interrupted create", "networkID", p.observed.Network.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkAdopted,
			"Adopted Neutron network %s left untagged by an interrupted create", p.observed.Network.ID)
	}

	for _, dup := range p.changes.DeleteNetworks {
		p.recordDuplicateDeleted(ctx, "network", dup.ID, p.observed.Network.ID, p.store.DeleteNetwork(ctx, p.owner.UID, dup.ID))
	}
	if out.net, err = p.applyNetwork(ctx); err != nil {
		return out, err
	}

	for _, dup := range p.changes.DeleteSubnets {
		kept := p.observed.Subnets[p.owner.SubnetItem(dup)]
		p.recordDuplicateDeleted(ctx, "subnet", dup.ID, kept.ID, p.store.DeleteSubnet(ctx, dup))
	}
	out.shares, out.router = p.observed.Shares, p.routerBefore()
	if err = p.detachRouters(ctx, out.net.ID); err != nil {
		return out, err
	}
	if out.subnets, out.complete, err = p.applySubnets(ctx, out.net.ID); err != nil {
		return out, err
	}
	if out.router, err = p.attachRouter(ctx, out.net, out.subnets, out.router); err != nil {
		return out, err
	}
	if out.shares, err = p.applySharing(ctx, out.net.ID, out.shares); err != nil {
		return out, err
	}
	out.net, err = p.unmark(ctx, out.net)
	return out, err
}

// unmark takes the sharing and router marks off the network once what they marked is
// gone, and the project's routers it no longer attaches to: one PUT of its tags for all.
func (p *pass) unmark(ctx context.Context, net neutron.Network) (neutron.Network, error) {
	rc := p.changes.Router
	if !p.changes.UnmarkSharing && !rc.Unmark && !rc.UntagRouters {
		return net, nil
	}
	marks := p.changes.Marks
	marks.Sharing = marks.Sharing && !p.changes.UnmarkSharing
	marks.Router = marks.Router && !rc.Unmark
	if rc.UntagRouters {
		marks.RouterIDs = rc.KeepIDs
	}
	return p.store.Retag(ctx, p.owner, net, marks)
}

// applySubnets removes the subnets the spec no longer has, then makes each item's
// subnet match. A removal that ports hold up does not hold up the other items: its subnet
// stays in the outcome, and its error is returned once they are done.
func (p *pass) applySubnets(ctx context.Context, networkID string) (subnets []itemSubnet, complete bool, err error) {
	var inUse []itemSubnet
	var inUseErr error
	for _, s := range p.changes.RemoveSubnets {
		item := p.owner.SubnetItem(s)
		if err := p.store.DeleteSubnet(ctx, s); err != nil {
			if neutron.KindOf(err) != neutron.KindInUse {
				return nil, false, err
			}
			inUse, inUseErr = append(inUse, p.counted(item, s)), cmp.Or(inUseErr, err)
			continue
		}
		klog.FromContext(ctx).Info("Deleted Neutron subnet the spec no longer has", "subnetID", s.ID, "item", item, "cidr", s.CIDR)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetDeleted,
			"Deleted Neutron subnet %s (%s)%s, which the spec no longer has", s.ID, s.CIDR, ofItem(item))
	}
	subnets = make([]itemSubnet, 0, len(p.changes.Subnets)+len(inUse))
	for _, ch := range p.changes.Subnets {
		s, err := p.applySubnet(ctx, networkID, ch)
		if err != nil {
			return nil, false, err
		}
		subnets = append(subnets, p.counted(ch.Want.Item, s))
	}
	return append(subnets, inUse...), true, inUseErr
}

// counted is the item's subnet with its addresses as the project's last count found them.
func (p *pass) counted(item string, s neutron.Subnet) itemSubnet {
	out := itemSubnet{item: item, subnet: s}
	if a, ok := p.store.AddressesOf(s.ID); ok {
		out.addresses = &a
	}
	return out
}

func (p *pass) applyNetwork(ctx context.Context) (neutron.Network, error) {
	changes, observed := p.changes, p.observed
	switch {
	case changes.CreateNetwork:
		created, err := p.store.CreateNetwork(ctx, p.owner, p.desired.Network, p.changes.Marks)
		if err != nil {
			return neutron.Network{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron network", "networkID", created.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkCreated, "Created Neutron network %s", created.ID)
		return created, nil
	case len(changes.NetworkDiffs) > 0 || changes.RetagNetwork:
		updated := *observed.Network
		var err error
		if changes.UpdateNetwork != (neutron.NetworkAttrs{}) {
			if updated, err = p.store.UpdateNetwork(ctx, p.owner, updated.ID, changes.UpdateNetwork); err != nil {
				return *observed.Network, err
			}
		}
		if changes.RetagNetwork {
			if updated, err = p.store.Retag(ctx, p.owner, updated, changes.Marks); err != nil {
				return *observed.Network, err
			}
		}
		if len(changes.NetworkDiffs) == 0 {
			// Only the sharing mark, which says nothing to the user (sharing.go).
			return updated, nil
		}
		what := neutron.Describe(changes.NetworkDiffs)
		klog.FromContext(ctx).Info("Updated Neutron network", "networkID", updated.ID, "changes", what)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkUpdated, "Changed Neutron network %s: %s", updated.ID, what)
		return updated, nil
	}
	return *observed.Network, nil
}

func (p *pass) applySubnet(ctx context.Context, networkID string, ch neutron.SubnetChange) (neutron.Subnet, error) {
	item := ch.Want.Item
	if ch.Got == nil {
		created, err := p.store.CreateSubnet(ctx, p.owner, networkID, ch.Want)
		if err != nil {
			return neutron.Subnet{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron subnet", "subnetID", created.ID, "item", item, "cidr", created.CIDR, "gateway", created.GatewayIP)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetCreated, "Created Neutron subnet %s (%s)%s", created.ID, created.Summary(), ofItem(item))
		return created, nil
	}
	current := *ch.Got
	if ch.Rename {
		renamed, err := p.store.RenameSubnet(ctx, p.owner, current, item)
		if err != nil {
			return neutron.Subnet{}, err
		}
		from := p.owner.SubnetItem(current)
		klog.FromContext(ctx).Info("Gave a Neutron subnet to the item of the same range", "subnetID", renamed.ID, "item", item, "from", from)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetKept,
			"Kept Neutron subnet %s (%s)%s, made%s", renamed.ID, renamed.CIDR, ofItem(item), ofItem(from))
		current = renamed
	}
	if len(ch.Diffs) == 0 {
		return current, nil
	}
	updated, err := p.store.UpdateSubnet(ctx, current, ch.Update)
	if err != nil {
		return neutron.Subnet{}, err
	}
	what := neutron.Describe(ch.Diffs)
	// A new gateway is what people look for, in the log as in Events.
	reason, logged := reasonSubnetUpdated, "Updated Neutron subnet"
	if slices.ContainsFunc(ch.Diffs, func(d neutron.Difference) bool { return d.Attribute == "gateway" }) {
		reason, logged = reasonGatewayUpdated, "Updated Neutron subnet gateway"
	}
	klog.FromContext(ctx).Info(logged, "subnetID", updated.ID, "item", item, "changes", what)
	p.recorder.Eventf(p.network, corev1.EventTypeNormal, reason, "Changed Neutron subnet %s%s: %s", updated.ID, ofItem(item), what)
	return updated, nil
}

// ofItem names an item of the list form in an Event, " for item <name>"; nothing for the
// one-subnet form.
func ofItem(item string) string {
	if item == "" {
		return ""
	}
	return " for item " + item
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
