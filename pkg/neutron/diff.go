package neutron

import (
	"fmt"
	"net/netip"
)

// Desired is what Neutron should hold for one Network: a network and one subnet on it.
type Desired struct {
	Network NetworkAttrs
	Subnet  DesiredSubnet
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
	c.UpdateNetwork, c.NetworkDiffs = diffNetwork(want.Network, *got.Network)
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
