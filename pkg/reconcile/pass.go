// A pass is one reconcile of one live Network. It holds what the spec asks for, what
// Neutron holds and the changes between them, and drives the resources in order: create
// network, subnets, router, interfaces, shares; delete the reverse. Each resource's
// desired state, comparison, calls and status are in its own file (network.go,
// subnets.go, router.go, shares.go).
package reconcile

import (
	"context"
	"errors"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
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
	// ungranted is what the spec asks for beyond the powers (grants_step.go); withheld
	// what of it the pass refuses, taken out of desired; kept what is in effect beyond
	// them and stays, as enforcement says; routerKeptAsIs whether the existing router
	// stays as it is, without a grant.
	ungranted      ungranted
	enforcement    grants.Enforcement
	withheld       []string
	kept           []keptPower
	routerKeptAsIs bool
	// existingRouter is the router spec.router.existing names, once looked up.
	existingRouter *neutron.Router
	// admitOwnRouter says whether the Network may have a router of its own in a namespace
	// bounded to bound of them.
	admitOwnRouter func(bound int) bool
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
	// desired is the network the pass made Neutron match: what status says it manages.
	desired neutron.DesiredNetwork
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

	out.desired = p.desired.Network
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

// recordDuplicateDeleted records the outcome of deleting what a split brain made twice. A
// failure is left for the next run: a duplicate does not hold up the one kept.
func (p *pass) recordDuplicateDeleted(ctx context.Context, kind, id, keptID string, err error) {
	if err != nil {
		klog.FromContext(ctx).Error(err, "Could not delete duplicate Neutron "+kind+"; will retry", "id", id)
		return
	}
	p.recorder.Eventf(p.network, corev1.EventTypeWarning, reasonDuplicateDeleted, "Deleted duplicate Neutron %s %s (kept %s)", kind, id, keptID)
}

// Desired returns what Neutron should hold for the Network, resource by resource. The
// error, written for the user, says why the spec cannot be realised: the CRD's validation
// rules normally stop such a spec at the door, so this guards against a CRD installed
// without them.
func Desired(network *samplecrdv1.Network) (neutron.Desired, error) {
	subnets, err := desiredSubnets(network.Spec)
	if err != nil {
		return neutron.Desired{}, err
	}
	router, err := desiredRouter(network.Spec)
	if err != nil {
		return neutron.Desired{}, err
	}
	sharedWith, err := desiredSharing(network.Spec)
	if err != nil {
		return neutron.Desired{}, err
	}
	net, err := desiredNetwork(network, sharedWith)
	if err != nil {
		return neutron.Desired{}, err
	}
	return neutron.Desired{Network: net, Subnets: subnets, Router: router}, nil
}

// Diff compares what Neutron holds for a Network with what it should hold, resource by
// resource in the order they are made: the network, its shares, its subnets, its router.
// It is the only place that decides whether Neutron matches, for the reconcile and the
// Neutron resync alike.
func Diff(want neutron.Desired, got neutron.Observed) neutron.Changes {
	c := neutron.Changes{DeleteNetworks: got.DuplicateNetworks, DeleteSubnets: got.DuplicateSubnets}
	diffNetwork(want, got, &c)
	diffShares(want, got, &c)
	if !diffSubnets(want, got, &c) {
		return c
	}
	diffRouter(want, got, &c)
	return c
}

// setRealized records in status what realises the spec, resource by resource: the
// network, the projects it is shared with, the router its subnets are attached to, and
// the subnets.
func setRealized(status *samplecrdv1.NetworkStatus, out outcome) {
	setNetworkStatus(status, out.net, out.desired)
	setSharesStatus(status, out.shares)
	setRouterStatus(status, out.router)
	setSubnetsStatus(status, out.subnets)
}

// Owner names the Network a Neutron resource belongs to.
func Owner(network *samplecrdv1.Network, clusterID string) neutron.Owner {
	return neutron.Owner{ClusterID: clusterID, Namespace: network.Namespace, Name: network.Name, UID: string(network.UID)}
}

// Recorded returns the Neutron resources the Network's status names.
func Recorded(network *samplecrdv1.Network) neutronstore.Recorded {
	rec := neutronstore.Recorded{NetworkID: network.Status.NetworkID, Subnets: map[string]string{}}
	if network.Status.SubnetID != "" {
		rec.Subnets[""] = network.Status.SubnetID
	}
	for _, s := range network.Status.Subnets {
		rec.Subnets[s.Name] = s.SubnetID
	}
	if network.Status.Router != nil {
		rec.RouterID = network.Status.Router.RouterID
	}
	return rec
}

// ImportRef returns the network, and the subnet of it, that a Network imports: once found
// (status.networkID), that network alone.
func ImportRef(network *samplecrdv1.Network) neutron.ImportRef {
	return neutron.ImportRef{
		NetworkID: network.Spec.Import.NetworkID, NetworkName: network.Spec.Import.NetworkName, CIDR: network.Spec.CIDR,
		FoundID: network.Status.NetworkID,
	}
}

// resolveReferences looks up, through the store, the resources the desired network's
// attributes name by ID or by name (neutron.Reference), before Diff compares them.
func (p *pass) resolveReferences(ctx context.Context) error {
	for _, ref := range neutron.References(&p.desired.Network.NetworkAttrs) {
		found, err := p.store.ResolveNamed(ctx, ref.Collection, ref.Ref)
		var re *neutron.ReferenceError
		if errors.As(err, &re) {
			re.Field = ref.Field
		}
		if err != nil {
			return err
		}
		ref.ResolvedID, ref.ResolvedName = found.ID, found.Name
	}
	return nil
}

// forgetReferences makes the next pass look up again what the desired network's
// attributes name, after Neutron refused a request that carried them: one may be gone.
func (p *pass) forgetReferences(err error) {
	if k := neutron.KindOf(err); k != neutron.KindNotFound && k != neutron.KindRejected {
		return
	}
	for _, ref := range neutron.References(&p.desired.Network.NetworkAttrs) {
		p.store.Forget(ref.Collection, ref.Ref)
	}
}

// ResolveCached resolves the references of desired from what store remembers, asking
// no one. It reports false when one was not looked up yet, or is the project's default,
// which is never remembered: the next pass looks it up.
func ResolveCached(store *neutronstore.Store, desired *neutron.Desired) bool {
	if q := desired.Network.QoSPolicy; q != nil && q.ProjectDefault {
		return false
	}
	for _, ref := range neutron.References(&desired.Network.NetworkAttrs) {
		id, ok := store.CachedResolve(ref.Collection, ref.Ref)
		if !ok {
			return false
		}
		ref.ResolvedID = id
	}
	return true
}
