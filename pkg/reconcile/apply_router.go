package reconcile

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// routerOutcome is the router a pass leaves the subnets attached to.
type routerOutcome struct {
	router    neutron.Router
	owned     bool
	subnetIDs []string
}

// observeRouters reads what the pass needs to know of routers: the network's routers and
// interfaces (for a network routed, or still marked), the existing router the spec names
// and the external network of the owned router.
func (p *pass) observeRouters(ctx context.Context) error {
	want, net := p.desired.Router, p.observed.Network
	if net != nil && !p.observed.Routers.Known && (want != nil || neutron.RouterMarked(*net)) {
		owned, interfaces, err := p.store.Routers(ctx, *net)
		if err != nil {
			return err
		}
		p.observed.Routers.Owned, p.observed.Routers.Interfaces, p.observed.Routers.Known = owned, interfaces, true
	}
	if want == nil {
		return nil
	}
	if want.Existing != nil {
		r, found, err := p.store.ExistingRouter(ctx, *want.Existing)
		if err != nil {
			return err
		}
		if !found {
			return routerNotFound(fmt.Sprintf(
				"spec.router.existing names router %s, which is not in project %s (deleted, renamed, or several of that name); name another router, or remove spec.router",
				want.Existing, p.network.Status.ProjectID))
		}
		if neutron.MadeForANetwork(r) {
			named := want.Existing.String()
			if want.Existing.ID == "" {
				named += " (" + r.ID + ")"
			}
			return routerOfAnotherNetwork(fmt.Sprintf(
				"spec.router.existing names router %s, which the controller made for a Network: only that Network attaches to it, and it is deleted with it; name a router of the project the controller did not make, or use spec.router.externalNetwork",
				named))
		}
		if !p.powers.AllowsRouter(r.ID, r.Name) {
			text := fmt.Sprintf("spec.router.existing router %s %q (allow.existingRouters)", r.ID, r.Name)
			if p.keepRouterAsIs(r, text) {
				return nil
			}
			// Not attached, and detached if it was: the pass goes on as for no router.
			p.withheld = append(p.withheld, text)
			p.desired.Router = nil
			return nil
		}
		p.observed.Routers.Existing = &r
	}
	if want.External != nil {
		if admitted, bound := p.admitRouter(); len(p.observed.Routers.Owned) == 0 && !admitted {
			p.withheld = append(p.withheld, fmt.Sprintf(
				"spec.router.externalNetwork: a router of its own, past the namespace's %d (allow.routersPerNamespace)", bound))
			p.desired.Router = nil
			return nil
		}
		id, found, err := p.store.ExternalNetworkID(ctx, *want.External)
		if err != nil {
			return err
		}
		if !found {
			return invalidSpec(fmt.Sprintf("spec.router.externalNetwork names %s, but the project sees no such external network (or several); name one by id or name",
				want.External))
		}
		p.observed.Routers.ExternalNetworkID = id
	}
	return nil
}

// routerBefore is the router the subnets are attached to before the pass changes them.
func (p *pass) routerBefore() *routerOutcome {
	target := p.changes.Router.Target
	if target == nil {
		return nil
	}
	subnetIDs := slices.DeleteFunc(neutron.AttachedSubnets(p.observed.Routers.Interfaces, target.ID), func(id string) bool {
		return slices.Contains(p.changes.Router.Detach, neutron.Interface{RouterID: target.ID, SubnetID: id})
	})
	return &routerOutcome{router: *target, owned: p.desired.Router != nil && p.desired.Router.Owned(), subnetIDs: subnetIDs}
}

// detachRouters removes the interfaces the spec no longer wants, then deletes the owner's
// routers it no longer wants: before the subnets change, as an interface keeps its subnet.
func (p *pass) detachRouters(ctx context.Context, networkID string) error {
	logger := klog.FromContext(ctx)
	for _, i := range p.changes.Router.Detach {
		if err := p.store.Detach(ctx, networkID, i); err != nil {
			return err
		}
		logger.Info("Detached a subnet from a router", "subnetID", i.SubnetID, "routerID", i.RouterID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetDetached, "Detached subnet %s from router %s", i.SubnetID, i.RouterID)
	}
	for _, r := range p.changes.Router.Delete {
		if err := p.store.DeleteRouter(ctx, r); err != nil {
			return err
		}
		logger.Info("Deleted the Network's router", "routerID", r.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonRouterDeleted, "Deleted router %s, which the spec no longer has", r.ID)
	}
	return nil
}

// attachRouter makes the owned router (or sets its gateway) and attaches the subnets of
// the items the spec wants attached.
func (p *pass) attachRouter(ctx context.Context, net neutron.Network, subnets []itemSubnet, before *routerOutcome) (*routerOutcome, error) {
	rc, logger := p.changes.Router, klog.FromContext(ctx)
	if p.desired.Router == nil {
		return nil, nil
	}
	out := before
	switch {
	case rc.Create:
		r, err := p.store.CreateRouter(ctx, net, p.gatewayRequest())
		if err != nil {
			return out, err
		}
		logger.Info("Created the Network's router", "routerID", r.ID, "gateway", r.GatewayAddresses())
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonRouterCreated, "Created router %s with its gateway on external network %s",
			r.ID, p.observed.Routers.ExternalNetworkID)
		out = &routerOutcome{router: r, owned: true}
	case rc.Gateway != nil:
		r, err := p.store.SetGateway(ctx, *rc.Target, *rc.Gateway)
		if err != nil {
			return out, err
		}
		logger.Info("Set the gateway of the Network's router", "routerID", r.ID, "change", rc.GatewayDiff.String())
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonRouterUpdated, "Changed router %s: %s", r.ID, rc.GatewayDiff)
		out.router = r
	}
	if out == nil {
		return nil, nil
	}
	for _, item := range rc.Attach {
		i := slices.IndexFunc(subnets, func(s itemSubnet) bool { return s.item == item })
		if i < 0 {
			continue
		}
		subnet := subnets[i].subnet
		if _, err := p.store.Attach(ctx, net.ID, out.router.ID, subnet.ID); err != nil {
			return out, err
		}
		out.subnetIDs = append(out.subnetIDs, subnet.ID)
		logger.Info("Attached a subnet to the router", "subnetID", subnet.ID, "item", item, "routerID", out.router.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetAttached, "Attached subnet %s (%s)%s to router %s",
			subnet.ID, subnet.CIDR, ofItem(item), out.router.ID)
	}
	slices.Sort(out.subnetIDs)
	out.subnetIDs = slices.Compact(out.subnetIDs)
	return out, nil
}

func (p *pass) gatewayRequest() neutron.GatewayRequest {
	return neutron.GatewayRequest{NetworkID: p.observed.Routers.ExternalNetworkID, EnableSNAT: p.desired.Router.EnableSNAT}
}
