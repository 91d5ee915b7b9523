package v1

// The rules of NetworkSubnet below, with those of SubnetFields (merged in by
// controller-gen), validate each item of spec.subnets; an error's path names the item
// (spec.subnets[1].gateway) and the messages of these rules name it too. The rules
// across items (overlap, MTU, IPv6 modes kept on a move) are on NetworkSpec and its
// Subnets field. In the order of the markers:
//
// A range is either cidr or subnetPool with prefixLength. With subnetPool the range is
// unknown until Neutron allocates it, so gateway and allocationPools, which must lie in
// it, are refused; gatewayMode None is not. The family is unknown too, and with it the
// largest prefixLength (30 for IPv4): that is left to Neutron and the controller. An
// IPv6 mode does make the subnet IPv6, so slaac and dhcpv6-stateless need prefixLength
// 64 as they need a /64 cidr (see SubnetFields).
//
// What cannot be added or removed once the item exists, by name: they are transition
// rules, which run per item because spec.subnets is a map keyed by name. A changed value
// is refused by the field's own rule (self == oldSelf). A new range takes an item of
// another name; new IPv6 modes on the same cidr take two updates (remove, then add once
// the subnet is deleted), since an item of another name with the same cidr keeps the
// subnet (see NetworkSpec).

// +kubebuilder:validation:XValidation:rule=`!has(self.cidr) || !has(self.subnetPool)`,message=`subnets item must set exactly one of cidr or subnetPool`,messageExpression=`'subnets item ' + self.name + ' sets both cidr and subnetPool: set exactly one (subnetPool with prefixLength)'`
// +kubebuilder:validation:XValidation:rule=`has(self.cidr) || has(self.subnetPool)`,message=`subnets item must set exactly one of cidr or subnetPool`,messageExpression=`'subnets item ' + self.name + ' sets neither cidr nor subnetPool: set exactly one (subnetPool with prefixLength)'`

// NetworkSubnet is one subnet of spec.subnets: its range is either cidr, or a prefix of
// prefixLength that Neutron allocates from subnetPool (then without gateway or
// allocationPools). The range cannot change: replace the item by one of another name
// instead. Nor can the IPv6 modes of its subnet, also under another name with the same
// cidr, which keeps the subnet.
type NetworkSubnet struct {
	// Name identifies the subnet within the Network, a DNS label such as ipv4 or
	// storage. Neutron's subnet carries it in its name, so that a create whose reply was
	// lost is found rather than made twice. Renaming an item keeps its subnet when the
	// new item has the same cidr.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`
	// SubnetPool names a subnet pool the Network's project can use (its own, or one
	// shared with it), by exactly one of id or name, to allocate the subnet's range from
	// instead of cidr; prefixLength says how large. gateway and allocationPools cannot be
	// set with it. The range Neutron allocated is in status.subnets. Immutable, and
	// cannot be added or removed later.
	// +optional
	// +kubebuilder:validation:XValidation:rule=`self == oldSelf`,message=`subnetPool is immutable`
	SubnetPool *SubnetPoolRef `json:"subnetPool,omitempty"`
	// 126 is the largest prefix an IPv6 subnet may have (see cidr); the IPv4 limit, 30,
	// needs the pool's family, which only Neutron knows.
	// +kubebuilder:validation:XValidation:rule=`self == oldSelf`,message=`prefixLength is immutable`

	// PrefixLength is the prefix length of the range to allocate from subnetPool, 1 to
	// 126, e.g. 64 for IPv6 or 26 for IPv4. Required with subnetPool, refused without it.
	// Immutable, and cannot be added or removed later.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=126
	PrefixLength *int32 `json:"prefixLength,omitempty"`

	SubnetFields `json:",inline"`
}

// +kubebuilder:validation:XValidation:rule=`has(self.id) != has(self.name)`,message=`subnetPool must name exactly one of id or name`

// SubnetPoolRef names a Neutron subnet pool by exactly one of id and name.
type SubnetPoolRef struct {
	// ID is the ID (a UUID) of the subnet pool.
	// +optional
	// +kubebuilder:validation:MaxLength=36
	// +kubebuilder:validation:XValidation:rule=`self.matches('^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$')`,message=`subnetPool id must be the UUID of a Neutron subnet pool, such as 5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f`
	ID string `json:"id,omitempty"`
	// Name is the exact name of the subnet pool; exactly one pool the project can use
	// must have it.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name,omitempty"`
}

// SubnetStatus is what the controller last observed of one subnet of spec.subnets. An
// item removed from the spec stays here until its subnet is gone.
type SubnetStatus struct {
	// Name is the item's name.
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`
	// CIDR is the subnet's range in Neutron: the item's cidr, or the range Neutron
	// allocated from its subnet pool.
	// +optional
	// +kubebuilder:validation:MaxLength=43
	CIDR string `json:"cidr,omitempty"`
	// SubnetID is the ID (a UUID) of the Neutron subnet.
	// +optional
	// +kubebuilder:validation:MaxLength=36
	SubnetID string `json:"subnetID,omitempty"`
	// Gateway is the gateway address in effect on the subnet; empty without gateway.
	// +optional
	// +kubebuilder:validation:MaxLength=39
	Gateway string `json:"gateway,omitempty"`
	// EnableDHCP says whether Neutron runs DHCP on the subnet, as Neutron reports it.
	// +optional
	EnableDHCP *bool `json:"enableDHCP,omitempty"`
	// Addresses says how full the subnet is, as last counted from the project's ports;
	// absent until the first count.
	// +optional
	Addresses *SubnetAddresses `json:"addresses,omitempty"`
}

// SubnetAddresses counts the addresses of a subnet's allocation pools: those Neutron can
// hand out to ports. An address outside the pools (the gateway) counts in none.
type SubnetAddresses struct {
	// Total is the number of addresses in the allocation pools, at most 2^63-1 (an IPv6
	// /64 has more).
	// +kubebuilder:validation:Minimum=0
	Total int64 `json:"total"`
	// Used is the number of them ports hold.
	// +kubebuilder:validation:Minimum=0
	Used int64 `json:"used"`
	// Free is total - used.
	// +kubebuilder:validation:Minimum=0
	Free int64 `json:"free"`
}
