package neutron

import (
	"slices"
)

// DesiredRouter is the router a Network's subnets are to be attached to: the owner's, with
// its gateway on External, or the project's router Existing.
type DesiredRouter struct {
	External   *Ref
	Existing   *Ref
	EnableSNAT *bool
	// Items are the spec items whose subnets are attached; nil attaches every subnet.
	Items []string
}

// Owned reports whether the router is the owner's to make and delete.
func (r DesiredRouter) Owned() bool { return r.External != nil }

// attaches reports whether the subnet of item is to be attached.
func (r DesiredRouter) attaches(item string) bool {
	return r.Items == nil || slices.Contains(r.Items, item)
}

// Ref names a Neutron resource by ID or by name.
type Ref struct {
	ID   string
	Name string
}

func (r Ref) String() string { return RefText(r.ID, r.Name) }

// RouterView is what Neutron holds of a network's routers: the owner's routers, oldest
// first, and the router interfaces on the network. Known says it was read.
type RouterView struct {
	Known      bool
	Owned      []Router
	Interfaces []Port
	// Existing is the router the spec's router.existing names, and ExternalNetworkID the
	// external network its router.externalNetwork names, as looked up for this pass.
	Existing          *Router
	ExternalNetworkID string
	// Recorded is the router status names, which the network may still be attached to
	// after the spec moved to another.
	Recorded string
}

// RouterChanges make a network's router match, in this order: Detach, Delete, (the
// subnets' changes,) Create or Gateway, Attach, then Unmark.
type RouterChanges struct {
	// Detach are interfaces to remove: of subnets not to be attached, or on a router that
	// is not the one wanted.
	Detach []Interface
	// Delete are the owner's routers no longer wanted (or a second one).
	Delete []Router
	// Create says the owner's router is to be made; else Target is the router to attach
	// to (nil for none), with Gateway to set on it when it is the owner's.
	Create  bool
	Target  *Router
	Gateway *GatewayRequest
	// GatewayDiff says how the owned router's gateway differs.
	GatewayDiff *Difference
	// Attach are the items whose subnets get an interface on the router.
	Attach []string
	// Unmark says RouterTag comes off the network once the rest is done; UntagRouters
	// that the tags are to name only the router attached to then (Marks.RouterIDs).
	Unmark       bool
	UntagRouters bool
	KeepIDs      []string
}

// None reports whether the router matches already.
func (c RouterChanges) None() bool {
	return len(c.Detach) == 0 && len(c.Delete) == 0 && !c.Create && c.Gateway == nil && len(c.Attach) == 0 && !c.Unmark && !c.UntagRouters
}

// diffRouter compares the router side of a network, whose subnets' changes c already has.
func diffRouter(want Desired, got Observed, c *Changes) {
	marked := got.Network != nil && RouterMarked(*got.Network)
	if got.Network == nil {
		if want.Router != nil {
			c.Router = RouterChanges{Create: want.Router.Owned(), Target: got.Routers.Existing, Attach: attachedItems(want)}
			if e := got.Routers.Existing; e != nil && !want.Router.Owned() {
				c.Marks.RouterIDs = []string{e.ID}
			}
		}
		return
	}
	// The project's router to attach to is named in the tags before the first attach; the
	// routers named there stay until their interfaces are gone.
	tagged := MarkedRouterIDs(*got.Network)
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
	rc := RouterChanges{Unmark: want.Router == nil && marked}
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
		if want.Router == nil || !want.Router.attaches(ch.Want.Item) {
			continue
		}
		// A new gateway is refused while the router's interface holds the old one: the
		// interface goes before the subnet's update and comes back after it.
		if ch.Got != nil && rc.Target != nil && slices.Contains(AttachedSubnets(got.Routers.Interfaces, rc.Target.ID), ch.Got.ID) &&
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
		for _, subnetID := range AttachedSubnets(got.Routers.Interfaces, routerID) {
			if rc.Target == nil || routerID != rc.Target.ID || !keep[subnetID] {
				rc.Detach = append(rc.Detach, Interface{RouterID: routerID, SubnetID: subnetID})
			}
		}
	}
	c.Router = rc
}

// attachedItems returns the items whose subnets are to be attached, in the spec's order.
func attachedItems(want Desired) []string {
	var out []string
	for _, s := range want.Subnets {
		if want.Router.attaches(s.Item) {
			out = append(out, s.Item)
		}
	}
	return out
}

// diffGateway returns the gateway to set on the owner's router r, and how it differs;
// nil when it matches.
func diffGateway(want DesiredRouter, externalNetworkID string, r Router) (*GatewayRequest, *Difference) {
	got := "none"
	if r.Gateway != nil {
		got = "network " + r.Gateway.NetworkID
		if r.Gateway.NetworkID == externalNetworkID && (want.EnableSNAT == nil || (r.Gateway.EnableSNAT != nil && *r.Gateway.EnableSNAT == *want.EnableSNAT)) {
			return nil, nil
		}
		if r.Gateway.NetworkID == externalNetworkID {
			got += ", snat " + optionalOnOff(r.Gateway.EnableSNAT)
		}
	}
	wantText := "network " + externalNetworkID
	if want.EnableSNAT != nil {
		wantText += ", snat " + onOff(*want.EnableSNAT)
	}
	return &GatewayRequest{NetworkID: externalNetworkID, EnableSNAT: want.EnableSNAT}, &Difference{"router gateway", got, wantText}
}
