package neutron

import (
	"slices"
	"strings"
	"time"
)

// Routers. A Network's router is either the owner's, made by the controller with its
// gateway on an external network and named and described like the owner's network (so
// that one list by name finds it after a lost reply or a crash), or an existing router of
// the project, of which only the interfaces on the network are the controller's.
//
// As with sharing, the network carries the mark (RouterTag) while the controller manages
// a router for it: from the create's tag call (or a PUT of the tags before the first
// router call) until the interfaces are detached and the owned router is deleted. A
// store's fill (pkg/neutronstore) lists the project's routers and router interfaces only
// when a network carries it, so a cluster without routed Networks pays nothing for them.

// RouterTag is carried by a network the controller attaches to a router.
const RouterTag = "k8s-router=managed"

// routerIDTagPrefix starts the tag that names a router of the project (not the owner's)
// the network's subnets may be attached to: it goes on before the first interface and
// comes off after the last, so that an interface whose attach was never recorded in status
// (a crash, a lost reply, a failed status write) is still known as the controller's.
const routerIDTagPrefix = "k8s-router-id="

// InterfaceOwner is the device owner of the port a router has on a subnet.
const InterfaceOwner = "network:router_interface"

// Router is the part of a Neutron router the controller looks at.
type Router struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	ProjectID   string       `json:"project_id"`
	Gateway     *GatewayInfo `json:"external_gateway_info"`
	CreatedAt   time.Time    `json:"created_at"`
}

// GatewayInfo is a router's gateway on an external network.
type GatewayInfo struct {
	NetworkID  string `json:"network_id"`
	EnableSNAT *bool  `json:"enable_snat,omitempty"`
	// FixedIPs are the gateway's addresses (Neutron's external_fixed_ips).
	FixedIPs []FixedIP `json:"external_fixed_ips,omitempty"`
}

// RouterRequest creates a router with its gateway.
type RouterRequest struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Gateway     *GatewayRequest `json:"external_gateway_info,omitempty"`
}

// GatewayRequest sets a router's gateway: the external network, and source NAT when set
// (admin-only by Neutron's default policy).
type GatewayRequest struct {
	NetworkID  string `json:"network_id"`
	EnableSNAT *bool  `json:"enable_snat,omitempty"`
}

// Interface is a router's interface on a subnet, as add_router_interface answers.
type Interface struct {
	RouterID string `json:"id"`
	SubnetID string `json:"subnet_id"`
	PortID   string `json:"port_id"`
}

// GetID returns the router's ID.
func (r Router) GetID() string { return r.ID }

// Project returns the project that owns the router.
func (r Router) Project() string { return r.ProjectID }

// GatewayAddresses returns the addresses of the router's gateway.
func (r Router) GatewayAddresses() []string {
	if r.Gateway == nil {
		return nil
	}
	out := make([]string, 0, len(r.Gateway.FixedIPs))
	for _, ip := range r.Gateway.FixedIPs {
		out = append(out, ip.IPAddress)
	}
	return out
}

// RouterMarked reports whether n carries RouterTag.
func RouterMarked(n Network) bool { return slices.Contains(n.Tags, RouterTag) }

// MarkedRouterIDs returns the project's routers n's tags name.
func MarkedRouterIDs(n Network) []string {
	var ids []string
	for _, t := range n.Tags {
		if id, ok := strings.CutPrefix(t, routerIDTagPrefix); ok && id != "" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// MadeForANetwork reports whether r is a router a network-controller made for a Network,
// of this cluster or another: it carries a cluster's description.
func MadeForANetwork(r Router) bool { return strings.HasPrefix(r.Description, descriptionStart) }

// AttachedSubnets returns the subnets routerID has an interface on, among ports.
func AttachedSubnets(ports []Port, routerID string) []string {
	var out []string
	for _, p := range ports {
		if p.DeviceOwner != InterfaceOwner || p.DeviceID != routerID {
			continue
		}
		for _, ip := range p.FixedIPs {
			if !slices.Contains(out, ip.SubnetID) {
				out = append(out, ip.SubnetID)
			}
		}
	}
	slices.Sort(out)
	return out
}

// RefText names a resource given by ID or name, e.g. `"public"` or an ID.
func RefText(id, name string) string {
	if id != "" {
		return id
	}
	return `"` + strings.ReplaceAll(name, `"`, `\"`) + `"`
}

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

// Attaches reports whether the subnet of item is to be attached.
func (r DesiredRouter) Attaches(item string) bool {
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
