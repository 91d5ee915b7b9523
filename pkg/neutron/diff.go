package neutron

import (
	"fmt"
	"net/netip"
)

// Desired is what Neutron should hold for one Network: a network and one subnet on it.
type Desired struct {
	Network DesiredNetwork
	Subnet  DesiredSubnet
}

// DesiredNetwork is the network to create, and the attributes to keep as they are.
type DesiredNetwork struct {
	NetworkAttrs
	// Retain mirrors the owner's deletion policy in the network's tags (see ownership.go).
	Retain bool
}

// DesiredSubnet is the subnet to create, and the attributes to keep as they are.
type DesiredSubnet struct {
	// CIDR, IPVersion and IPv6Modes are set when the subnet is created; Neutron cannot
	// change them.
	CIDR      string
	IPVersion int
	IPv6Modes
	SubnetAttrs
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
	// RetagNetwork says that the tags are to carry the desired deletion policy: a call of
	// its own, as Neutron sets tags apart from the other attributes.
	RetagNetwork  bool
	DeleteSubnets []Subnet
	CreateSubnet  bool
	UpdateSubnet  SubnetAttrs
	SubnetDiffs   []Difference
	// Immutable, when set, says how the subnet differs in what Neutron cannot change: no
	// change can make it match.
	Immutable string
}

// None reports whether Neutron matches already.
func (c Changes) None() bool {
	return len(c.DeleteNetworks) == 0 && !c.CreateNetwork && len(c.NetworkDiffs) == 0 &&
		len(c.DeleteSubnets) == 0 && !c.CreateSubnet && len(c.SubnetDiffs) == 0 && c.Immutable == ""
}

// Diff compares what Neutron holds for a Network with what it should hold. It is the only
// place that decides whether Neutron matches, for the reconcile and the Neutron resync alike.
func Diff(want Desired, got Observed) Changes {
	c := Changes{DeleteNetworks: got.DuplicateNetworks, DeleteSubnets: got.DuplicateSubnets}
	if got.Network == nil {
		c.CreateNetwork, c.CreateSubnet = true, true
		return c
	}
	c.UpdateNetwork, c.NetworkDiffs = diffNetwork(want.Network.NetworkAttrs, *got.Network)
	if retained := Retained(*got.Network); retained != want.Network.Retain {
		c.RetagNetwork = true
		c.NetworkDiffs = append(c.NetworkDiffs, Difference{"deletion policy", policyName(retained), policyName(want.Network.Retain)})
	}
	if got.Subnet == nil {
		c.CreateSubnet = true
		return c
	}
	if cidr, err := netip.ParsePrefix(got.Subnet.CIDR); err != nil || cidr.String() != want.Subnet.CIDR {
		c.Immutable = fmt.Sprintf("Neutron subnet %s has CIDR %s, not %s, and a subnet's CIDR cannot change: delete and recreate the Network",
			got.Subnet.ID, got.Subnet.CIDR, want.Subnet.CIDR)
		return c
	}
	if got.Subnet.IPv6Modes != want.Subnet.IPv6Modes {
		c.Immutable = fmt.Sprintf("Neutron subnet %s has IPv6 %s, not %s, and a subnet's IPv6 modes cannot change: delete and recreate the Network",
			got.Subnet.ID, got.Subnet.IPv6Modes, want.Subnet.IPv6Modes)
		return c
	}
	c.UpdateSubnet, c.SubnetDiffs = diffSubnet(want.Subnet.SubnetAttrs, *got.Subnet)
	return c
}

func policyName(retain bool) string {
	if retain {
		return "Retain"
	}
	return "Delete"
}
