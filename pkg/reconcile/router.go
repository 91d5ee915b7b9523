// The router and its interfaces: the router the spec asks for, what Neutron holds of the
// network's routers, the changes, the calls that detach, delete, create and attach, and
// what status records.
package reconcile

import (
	"context"
	"fmt"
	"slices"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// desiredRouter returns the router spec asks for, nil for none. The error guards against a
// CRD installed without its rules, as Desired's do.
func desiredRouter(spec samplecrdv1.NetworkSpec) (*neutron.DesiredRouter, error) {
	r := spec.Router
	if r == nil {
		return nil, nil
	}
	out := &neutron.DesiredRouter{EnableSNAT: r.EnableSNAT}
	var err error
	if out.External, err = neutronRef("router externalNetwork", r.ExternalNetwork); err != nil {
		return nil, err
	}
	if out.Existing, err = neutronRef("router existing", r.Existing); err != nil {
		return nil, err
	}
	if (out.External == nil) == (out.Existing == nil) {
		return nil, fmt.Errorf("router must have exactly one of externalNetwork or existing")
	}
	for _, item := range r.Subnets {
		if !slices.ContainsFunc(spec.Subnets, func(s samplecrdv1.NetworkSubnet) bool { return s.Name == item }) {
			return nil, fmt.Errorf("router subnets names %s, which is not an item of subnets", item)
		}
	}
	if len(r.Subnets) > 0 {
		out.Items = slices.Clone(r.Subnets)
	}
	return out, nil
}

// neutronRef returns what ref names, checked as the CRD checks it: by exactly one of a
// UUID or a name of at most 255 bytes.
func neutronRef(field string, ref *samplecrdv1.NeutronRef) (*neutron.Ref, error) {
	switch {
	case ref == nil:
		return nil, nil
	case (ref.ID == "") == (ref.Name == ""):
		return nil, fmt.Errorf("%s must name exactly one of id or name", field)
	case ref.ID != "" && !uuid.MatchString(ref.ID):
		return nil, fmt.Errorf("%s id %q is not the UUID of a Neutron resource", field, ref.ID)
	case len(ref.Name) > neutron.MaxFieldLength:
		return nil, fmt.Errorf("%s name is longer than %d bytes", field, neutron.MaxFieldLength)
	}
	return &neutron.Ref{ID: ref.ID, Name: ref.Name}, nil
}

// diffRouter compares the router side of a network, whose subnets' changes c already has.
func diffRouter(want neutron.Desired, got neutron.Observed, c *neutron.Changes) {
	marked := got.Network != nil && neutron.RouterMarked(*got.Network)
	if got.Network == nil {
		if want.Router != nil {
			c.Router = neutron.RouterChanges{Create: want.Router.Owned(), Target: got.Routers.Existing, Attach: attachedItems(want)}
			if e := got.Routers.Existing; e != nil && !want.Router.Owned() {
				c.Marks.RouterIDs = []string{e.ID}
			}
		}
		return
	}
	// The project's router to attach to is named in the tags before the first attach; the
	// routers named there stay until their interfaces are gone.
	tagged := neutron.MarkedRouterIDs(*got.Network)
	var wantedID string
	if want.Router != nil && !want.Router.Owned() && got.Routers.Existing != nil {
		wantedID = got.Routers.Existing.ID
	}
	c.Marks.RouterIDs = tagged
	if wantedID != "" && !slices.Contains(tagged, wantedID) {
		c.Marks.RouterIDs = slices.Sorted(slices.Values(append(slices.Clone(tagged), wantedID)))
		c.RetagNetwork = true
	}
	if (want.Router != nil && !marked) || (!slices.Equal(tagged, c.Marks.RouterIDs)) {
		c.RetagNetwork = true
	}
	c.Marks.Router = want.Router != nil || marked
	if !got.Routers.Known {
		return
	}
	rc := neutron.RouterChanges{Unmark: want.Router == nil && marked}
	if wantedID != "" {
		rc.KeepIDs = []string{wantedID}
	}
	rc.UntagRouters = len(tagged) > 0 && !slices.Equal(tagged, rc.KeepIDs)
	owned := got.Routers.Owned
	switch {
	case want.Router != nil && want.Router.Owned():
		if len(owned) == 0 {
			rc.Create = true
		} else {
			rc.Target = &owned[0]
			rc.Delete = owned[1:]
			rc.Gateway, rc.GatewayDiff = diffGateway(*want.Router, got.Routers.ExternalNetworkID, owned[0])
		}
	case want.Router != nil:
		rc.Target = got.Routers.Existing
		rc.Delete = owned
	default:
		rc.Delete = owned
	}

	// The subnets that stay and are to be attached; the rest of the managed routers'
	// interfaces on the network go.
	keep := map[string]bool{}
	for _, ch := range c.Subnets {
		if want.Router == nil || !want.Router.Attaches(ch.Want.Item) {
			continue
		}
		// A new gateway is refused while the router's interface holds the old one: the
		// interface goes before the subnet's update and comes back after it.
		if ch.Got != nil && rc.Target != nil && slices.Contains(neutron.AttachedSubnets(got.Routers.Interfaces, rc.Target.ID), ch.Got.ID) &&
			ch.Update.GatewayIP == nil {
			keep[ch.Got.ID] = true
			continue
		}
		rc.Attach = append(rc.Attach, ch.Want.Item)
	}
	managed := append([]string{got.Routers.Recorded}, tagged...)
	for _, r := range owned {
		managed = append(managed, r.ID)
	}
	if rc.Target != nil {
		managed = append(managed, rc.Target.ID)
	}
	for _, routerID := range slices.Compact(slices.Sorted(slices.Values(managed))) {
		if routerID == "" {
			continue
		}
		for _, subnetID := range neutron.AttachedSubnets(got.Routers.Interfaces, routerID) {
			if rc.Target == nil || routerID != rc.Target.ID || !keep[subnetID] {
				rc.Detach = append(rc.Detach, neutron.Interface{RouterID: routerID, SubnetID: subnetID})
			}
		}
	}
	c.Router = rc
}

// attachedItems returns the items whose subnets are to be attached, in the spec's order.
func attachedItems(want neutron.Desired) []string {
	var out []string
	for _, s := range want.Subnets {
		if want.Router.Attaches(s.Item) {
			out = append(out, s.Item)
		}
	}
	return out
}

// diffGateway returns the gateway to set on the owner's router r, and how it differs;
// nil when it matches.
func diffGateway(want neutron.DesiredRouter, externalNetworkID string, r neutron.Router) (*neutron.GatewayRequest, *neutron.Difference) {
	got := "none"
	if r.Gateway != nil {
		got = "network " + r.Gateway.NetworkID
		if r.Gateway.NetworkID == externalNetworkID && (want.EnableSNAT == nil || (r.Gateway.EnableSNAT != nil && *r.Gateway.EnableSNAT == *want.EnableSNAT)) {
			return nil, nil
		}
		if r.Gateway.NetworkID == externalNetworkID {
			got += ", snat " + neutron.OptionalOnOff(r.Gateway.EnableSNAT)
		}
	}
	wantText := "network " + externalNetworkID
	if want.EnableSNAT != nil {
		wantText += ", snat " + neutron.OnOff(*want.EnableSNAT)
	}
	return &neutron.GatewayRequest{NetworkID: externalNetworkID, EnableSNAT: want.EnableSNAT}, &neutron.Difference{Attribute: "router gateway", Observed: got, Desired: wantText}
}

// routerOutcome is the router a pass leaves the subnets attached to.
type routerOutcome struct {
	router    neutron.Router
	owned     bool
	subnetIDs []string
}

// resolveExistingRouter looks up the existing router the spec names, by ID or name, as
// the spec's other references are resolved: before the grants are asked, which may name
// it either way.
func (p *pass) resolveExistingRouter(ctx context.Context) error {
	want := p.desired.Router
	if want == nil || want.Existing == nil {
		return nil
	}
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
	p.existingRouter = &r
	return nil
}

// observeRouters reads what the pass needs to know of routers: the network's routers and
// interfaces (for a network routed, or still marked), and the external network of a
// router of its own, once the namespace's bound admits one.
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
		p.observed.Routers.Existing = p.existingRouter
	}
	if want.External != nil {
		if u := p.ungranted; u.bounded && !p.admitOwnRouter(u.routerBound) && len(p.observed.Routers.Owned) == 0 {
			p.withheld = append(p.withheld, fmt.Sprintf(
				"spec.router.externalNetwork: a router of its own, past the namespace's %d (allow.routersPerNamespace)", u.routerBound))
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

// setRouterStatus records the router the subnets are attached to; nil for none.
func setRouterStatus(status *samplecrdv1.NetworkStatus, r *routerOutcome) {
	status.Router = nil
	if r != nil {
		status.Router = &samplecrdv1.RouterStatus{RouterID: r.router.ID, Owned: r.owned,
			ExternalGatewayAddresses: r.router.GatewayAddresses(), SubnetIDs: r.subnetIDs}
	}
}
