package v1

// NetworkSubnet is one subnet of spec.subnets: its range is either cidr, or a prefix of
// prefixLength that Neutron allocates from subnetPool.
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
	// instead of cidr; prefixLength says how large. The range Neutron allocated is in
	// status.subnets. Immutable.
	// +optional
	SubnetPool *SubnetPoolRef `json:"subnetPool,omitempty"`
	// PrefixLength is the prefix length of the range to allocate from subnetPool, e.g.
	// 64 for IPv6 or 26 for IPv4. Required with subnetPool, refused without it.
	// Immutable.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=126
	PrefixLength *int32 `json:"prefixLength,omitempty"`

	SubnetFields `json:",inline"`
}

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
}
