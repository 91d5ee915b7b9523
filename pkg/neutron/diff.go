package neutron

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strconv"
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
	// SharedWith are the projects the network is shared with (sharing.go); none is
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
	// them only for a network that carries SharingTag, or that it created.
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

// Diff compares what Neutron holds for a Network with what it should hold. It is the only
// place that decides whether Neutron matches, for the reconcile and the Neutron resync alike.
func Diff(want Desired, got Observed) Changes {
	c := Changes{DeleteNetworks: got.DuplicateNetworks, DeleteSubnets: got.DuplicateSubnets}
	if got.Network == nil {
		c.CreateNetwork = true
		c.Share = slices.Clone(want.Network.SharedWith)
		c.Marks = want.Marks()
		diffRouter(want, got, &c)
		for _, w := range want.Subnets {
			c.Subnets = append(c.Subnets, SubnetChange{Want: w})
		}
		return c
	}
	c.UpdateNetwork, c.NetworkDiffs = diffNetwork(want.Network.NetworkAttrs, *got.Network)
	if retained := Retained(*got.Network); retained != want.Network.Retain {
		c.RetagNetwork = true
		c.NetworkDiffs = append(c.NetworkDiffs, Difference{"deletion policy", policyName(retained), policyName(want.Network.Retain)})
	}
	if marked := SharingMarked(*got.Network); len(want.Network.SharedWith) > 0 && !marked {
		c.RetagNetwork = true
	} else if marked && len(want.Network.SharedWith) == 0 {
		c.UnmarkSharing = true
	}
	// The mark stays on until the policies are gone (sharing.go).
	c.Marks = want.Marks()
	c.Marks.Sharing = c.Marks.Sharing || SharingMarked(*got.Network)
	if got.SharesKnown {
		c.Share, c.Unshare = diffShares(want.Network.SharedWith, got.Shares)
	}

	// Each item takes its own subnet; an item without one takes a subnet of the same range
	// that no item of the spec names; the rest are removed.
	unclaimed := maps.Clone(got.Subnets)
	for _, w := range want.Subnets {
		delete(unclaimed, w.Item)
	}
	for _, w := range want.Subnets {
		ch := SubnetChange{Want: w}
		if s, ok := got.Subnets[w.Item]; ok {
			ch.Got = &s
		} else if item, ok := sameRange(unclaimed, w); ok {
			s := unclaimed[item]
			ch.Got, ch.Rename = &s, true
			delete(unclaimed, item)
		}
		if ch.Got != nil {
			switch immutable := immutableDifference(w, *ch.Got); {
			case immutable != "" && w.Item == "":
				c.Immutable = immutable
				return c
			case immutable != "":
				// The CRD keeps an item's range and modes as they are: an item whose subnet
				// has others was removed and added again since, and gets a subnet anew.
				c.RemoveSubnets = append(c.RemoveSubnets, *ch.Got)
				ch.Got, ch.Rename = nil, false
			default:
				ch.Update, ch.Diffs = diffSubnet(w.SubnetAttrs, *ch.Got)
			}
		}
		c.Subnets = append(c.Subnets, ch)
	}
	for _, item := range slices.Sorted(maps.Keys(unclaimed)) {
		c.RemoveSubnets = append(c.RemoveSubnets, unclaimed[item])
	}
	diffRouter(want, got, &c)
	return c
}

// sameRange returns the item, among those of subnets, whose subnet has the range w asks
// for by CIDR; a pool subnet's range is Neutron's choice, so none is the same.
func sameRange(subnets map[string]Subnet, w DesiredSubnet) (string, bool) {
	if w.CIDR == "" {
		return "", false
	}
	for _, item := range slices.Sorted(maps.Keys(subnets)) {
		if samePrefix(subnets[item].CIDR, w.CIDR) {
			return item, true
		}
	}
	return "", false
}

// immutableDifference says how got differs from w in what Neutron cannot change, or "".
// Only the one-subnet form reports it; an item's subnet is replaced instead (see Diff).
func immutableDifference(w DesiredSubnet, got Subnet) string {
	switch {
	case w.Pool == nil:
		if cidr, err := netip.ParsePrefix(got.CIDR); err != nil || cidr.String() != w.CIDR {
			return fmt.Sprintf("Neutron subnet %s has CIDR %s, not %s, and a subnet's CIDR cannot change: delete and recreate the Network",
				got.ID, got.CIDR, w.CIDR)
		}
	case got.SubnetPoolID == "" || (w.Pool.ID != "" && got.SubnetPoolID != w.Pool.ID):
		return fmt.Sprintf("Neutron subnet %s was not allocated from subnet pool %s, and a subnet's range cannot change",
			got.ID, w.Pool)
	default:
		if cidr, err := netip.ParsePrefix(got.CIDR); err != nil || cidr.Bits() != w.PrefixLength {
			return fmt.Sprintf("Neutron subnet %s has CIDR %s, not a /%d, and a subnet's range cannot change",
				got.ID, got.CIDR, w.PrefixLength)
		}
	}
	if got.IPv6Modes != w.IPv6Modes {
		return fmt.Sprintf("Neutron subnet %s has IPv6 %s, not %s, and a subnet's IPv6 modes cannot change: delete and recreate the Network",
			got.ID, got.IPv6Modes, w.IPv6Modes)
	}
	return ""
}

func policyName(retain bool) string {
	if retain {
		return "Retain"
	}
	return "Delete"
}

// diffNetwork returns the managed attributes of want that got does not have.
func diffNetwork(want NetworkAttrs, got Network) (NetworkAttrs, []Difference) {
	var change NetworkAttrs
	var diffs []Difference
	if want.MTU != nil && *want.MTU != got.MTU {
		change.MTU = want.MTU
		diffs = append(diffs, Difference{"mtu", strconv.Itoa(got.MTU), strconv.Itoa(*want.MTU)})
	}
	if want.PortSecurityEnabled != nil && (got.PortSecurityEnabled == nil || *got.PortSecurityEnabled != *want.PortSecurityEnabled) {
		change.PortSecurityEnabled = want.PortSecurityEnabled
		diffs = append(diffs, Difference{"port security", optionalOnOff(got.PortSecurityEnabled), onOff(*want.PortSecurityEnabled)})
	}
	return change, diffs
}

// diffSubnet returns the managed attributes of want that got does not have.
func diffSubnet(want SubnetAttrs, got Subnet) (SubnetAttrs, []Difference) {
	var change SubnetAttrs
	var diffs []Difference
	if want.GatewayIP != nil && !sameAddr(string(*want.GatewayIP), got.GatewayIP) {
		change.GatewayIP = want.GatewayIP
		diffs = append(diffs, Difference{"gateway", orNone(got.GatewayIP), orNone(string(*want.GatewayIP))})
	}
	if want.AllocationPools != nil && !samePools(want.AllocationPools, got.AllocationPools) {
		change.AllocationPools = want.AllocationPools
		diffs = append(diffs, Difference{"allocation pools", poolsText(got.AllocationPools), poolsText(want.AllocationPools)})
	}
	if want.DNSNameservers != nil && !slices.EqualFunc(want.DNSNameservers, got.DNSNameservers, sameAddr) {
		change.DNSNameservers = want.DNSNameservers
		diffs = append(diffs, Difference{"dns nameservers", listText(got.DNSNameservers), listText(want.DNSNameservers)})
	}
	if want.HostRoutes != nil && !sameRoutes(want.HostRoutes, got.HostRoutes) {
		change.HostRoutes = want.HostRoutes
		diffs = append(diffs, Difference{"host routes", routesText(got.HostRoutes), routesText(want.HostRoutes)})
	}
	if want.EnableDHCP != nil && *want.EnableDHCP != got.EnableDHCP {
		change.EnableDHCP = want.EnableDHCP
		diffs = append(diffs, Difference{"dhcp", onOff(got.EnableDHCP), onOff(*want.EnableDHCP)})
	}
	return change, diffs
}

// sameAddr compares two addresses as addresses, so that the spelling of an IPv6 address
// does not count as a difference.
func sameAddr(a, b string) bool { return sameParsed(a, b, netip.ParseAddr) }

// samePrefix compares two CIDRs as prefixes, as sameAddr compares addresses.
func samePrefix(a, b string) bool { return sameParsed(a, b, netip.ParsePrefix) }

// sameParsed compares a and b as parse reads them, or as text when either does not parse.
func sameParsed[T comparable](a, b string, parse func(string) (T, error)) bool {
	x, errA := parse(a)
	y, errB := parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return x == y
}

// samePools compares allocation pools as sets of ranges: Neutron need not keep their order.
func samePools(a, b []Pool) bool {
	if len(a) != len(b) {
		return false
	}
	byStart := func(p, q Pool) int {
		x, _ := netip.ParseAddr(p.Start)
		y, _ := netip.ParseAddr(q.Start)
		return x.Compare(y)
	}
	a, b = slices.SortedFunc(slices.Values(a), byStart), slices.SortedFunc(slices.Values(b), byStart)
	for i := range a {
		if !sameAddr(a[i].Start, b[i].Start) || !sameAddr(a[i].End, b[i].End) {
			return false
		}
	}
	return true
}

// sameRoutes compares host routes as sets: Neutron does not keep their order.
func sameRoutes(a, b []HostRoute) bool {
	if len(a) != len(b) {
		return false
	}
	for _, r := range a {
		if !slices.ContainsFunc(b, func(o HostRoute) bool {
			return samePrefix(r.Destination, o.Destination) && sameAddr(r.NextHop, o.NextHop)
		}) {
			return false
		}
	}
	return true
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

func routesText(routes []HostRoute) string {
	parts := make([]string, len(routes))
	for i, r := range routes {
		parts[i] = r.Destination + " via " + r.NextHop
	}
	return listText(parts)
}

func listText(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ",")
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// optionalOnOff is onOff of a setting Neutron may not report: "unset" when it does not.
func optionalOnOff(on *bool) string {
	if on == nil {
		return "unset"
	}
	return onOff(*on)
}

func poolsText(pools []Pool) string {
	parts := make([]string, len(pools))
	for i, p := range pools {
		parts[i] = p.Start + "-" + p.End
	}
	return listText(parts)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
