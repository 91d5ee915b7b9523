package neutron

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// Desired is what Neutron should hold for one Network: a network and its subnets.
type Desired struct {
	Network DesiredNetwork
	// Subnets are one per item of the spec, in its order; the one-subnet form is one
	// subnet of item "".
	Subnets []DesiredSubnet
	// Router is the router to attach the subnets to; nil for none.
	Router *DesiredRouter
}

// Marks are the marks the network's tags are to carry for this desired state.
func (d Desired) Marks() Marks {
	return Marks{Retain: d.Network.Retain, Sharing: len(d.Network.SharedWith) > 0, Router: d.Router != nil}
}

// DesiredNetwork is the network to create, and the attributes to keep as they are.
type DesiredNetwork struct {
	NetworkAttrs
	// Retain mirrors the owner's deletion policy in the network's tags (see ownership.go).
	Retain bool
	// SharedWith are the projects the network is shared with (RBAC policies, sharing.go); none is
	// shared with no project.
	SharedWith []string
}

// DesiredSubnet is the subnet of one item of the spec: the one to create, and the
// attributes to keep as they are.
type DesiredSubnet struct {
	// Item is the name of the spec's item, "" for the one-subnet form. The subnet's
	// Neutron name carries it (Owner.SubnetName).
	Item string
	// CIDR, or Pool and PrefixLength, IPVersion and IPv6Modes are set when the subnet is
	// created; Neutron cannot change them. A pool subnet's IPVersion is the pool's.
	CIDR         string
	Pool         *PoolRef
	PrefixLength int
	IPVersion    int
	IPv6Modes
	SubnetAttrs
}

// PoolRef names a subnet pool by ID or by name.
type PoolRef struct {
	ID   string
	Name string
}

func (r PoolRef) String() string {
	if r.ID != "" {
		return r.ID
	}
	return fmt.Sprintf("%q", r.Name)
}

// Observed is what Neutron holds for one owner.
type Observed struct {
	// Network is the owner's network, the one status names or else the oldest; nil if none.
	Network *Network
	// Subnets are the owner's subnets on Network by the item their names carry, one per
	// item, chosen the same way.
	Subnets map[string]Subnet
	// DuplicateNetworks and DuplicateSubnets are the owner's others.
	DuplicateNetworks []Network
	DuplicateSubnets  []Subnet
	// Adopted says that Network had no tags, its create having been cut off before them,
	// and was tagged on the way.
	Adopted bool
	// Shares are the RBAC policies that share Network, when SharesKnown: a store knows
	// them only for a network that carries SharingTag, that it created, or that a list of
	// the project's policies found shared.
	Shares      []RBACPolicy
	SharesKnown bool
	// Routers is what Neutron holds of the network's routers, when Routers.Known: a store
	// knows it only for a network that carries RouterTag, or that it created.
	Routers RouterView
}

// Changes is what makes Neutron match a desired state, in the order it is to be done.
type Changes struct {
	// DeleteNetworks and DeleteSubnets are duplicates: only a split brain between two
	// controllers of one cluster makes them, and left alone they leak.
	DeleteNetworks []Network
	CreateNetwork  bool
	// UpdateNetwork holds only the attributes to change, NetworkDiffs says what they are.
	UpdateNetwork NetworkAttrs
	NetworkDiffs  []Difference
	// RetagNetwork says that the tags are to carry Marks, the desired deletion policy or
	// the sharing mark: a call of its own, as Neutron sets tags apart from the other
	// attributes.
	RetagNetwork bool
	Marks        Marks
	// Share are the projects to share the network with, Unshare the RBAC policies to
	// delete (first); UnmarkSharing says that the sharing mark comes off after them.
	Share         []string
	Unshare       []RBACPolicy
	UnmarkSharing bool
	// Router are the changes of the network's router.
	Router RouterChanges

	DeleteSubnets []Subnet
	// RemoveSubnets are the subnets of items the spec no longer has, or of a range or
	// IPv6 modes an item no longer has (the item was removed and added again).
	RemoveSubnets []Subnet
	// Subnets are the changes of each desired subnet, in the spec's order.
	Subnets []SubnetChange
	// Immutable, when set, says how a subnet differs in what Neutron cannot change: no
	// change can make it match.
	Immutable string
}

// SubnetChange is what makes one item's subnet match.
type SubnetChange struct {
	Want DesiredSubnet
	// Got is the item's subnet, nil when it is to be created.
	Got *Subnet
	// Rename says that Got is the subnet of an item the spec no longer has, with the same
	// range: the form moved, or the item was renamed. It is given this item's name
	// rather than deleted and created again.
	Rename bool
	// Update holds only the attributes to change, Diffs says what they are.
	Update SubnetAttrs
	Diffs  []Difference
}

// None reports whether the item's subnet matches already.
func (c SubnetChange) None() bool { return c.Got != nil && !c.Rename && len(c.Diffs) == 0 }

// None reports whether Neutron matches already.
func (c Changes) None() bool {
	return len(c.DeleteNetworks) == 0 && !c.CreateNetwork && len(c.NetworkDiffs) == 0 && !c.RetagNetwork &&
		len(c.Share) == 0 && len(c.Unshare) == 0 && !c.UnmarkSharing && c.Router.None() &&
		len(c.DeleteSubnets) == 0 && len(c.RemoveSubnets) == 0 && c.Immutable == "" &&
		!slices.ContainsFunc(c.Subnets, func(s SubnetChange) bool { return !s.None() })
}

// CreatesSubnet reports whether a subnet is to be created.
func (c Changes) CreatesSubnet() bool {
	return slices.ContainsFunc(c.Subnets, func(s SubnetChange) bool { return s.Got == nil })
}

// SubnetDiffs returns what differs on every subnet, in the spec's order.
func (c Changes) SubnetDiffs() []Difference {
	var diffs []Difference
	for _, s := range c.Subnets {
		diffs = append(diffs, s.Diffs...)
	}
	return diffs
}

// Difference is one attribute whose observed value is not the desired one, in words.
type Difference struct {
	Attribute string
	Observed  string
	Desired   string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s from %s to %s", d.Attribute, d.Observed, d.Desired)
}

// Describe says in words what differs, e.g. "gateway from 10.0.0.1 to 10.0.0.9".
func Describe(diffs []Difference) string {
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

// RoutesText says host routes in words, e.g. "10.1.0.0/16 via 10.0.0.1"; "none" for none.
func RoutesText(routes []HostRoute) string {
	parts := make([]string, len(routes))
	for i, r := range routes {
		parts[i] = r.Destination + " via " + r.NextHop
	}
	return ListText(parts)
}

// ListText joins items with commas; "none" for none.
func ListText(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ",")
}

// OnOff says a setting in words: "on" or "off".
func OnOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// OptionalOnOff is OnOff of a setting Neutron may not report: "unset" when it does not.
func OptionalOnOff(on *bool) string {
	if on == nil {
		return "unset"
	}
	return OnOff(*on)
}

// PoolsText says allocation pools in words, e.g. "10.0.0.2-10.0.0.254"; "none" for none.
func PoolsText(pools []Pool) string {
	parts := make([]string, len(pools))
	for i, p := range pools {
		parts[i] = p.Start + "-" + p.End
	}
	return ListText(parts)
}

// OrNone is s, or "none" when it is empty.
func OrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// SameAddr compares two addresses as addresses, so that the spelling of an IPv6 address
// does not count as a difference.
func SameAddr(a, b string) bool { return sameParsed(a, b, netip.ParseAddr) }

// SamePrefix compares two CIDRs as prefixes, as SameAddr compares addresses.
func SamePrefix(a, b string) bool { return sameParsed(a, b, netip.ParsePrefix) }

// sameParsed compares a and b as parse reads them, or as text when either does not parse.
func sameParsed[T comparable](a, b string, parse func(string) (T, error)) bool {
	x, errA := parse(a)
	y, errB := parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return x == y
}
