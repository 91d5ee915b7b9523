package v1

// NetworkRouter connects the network's subnets to a router, which reaches beyond them:
// either a router the controller makes and owns, with its gateway on an external network,
// or a router the project already has.
// +kubebuilder:validation:XValidation:rule=`has(self.externalNetwork) != has(self.existing)`,message=`router must have exactly one of externalNetwork (a router the controller makes, with its gateway on that external network) or existing (a router the project already has)`
// +kubebuilder:validation:XValidation:rule=`!has(self.enableSNAT) || has(self.externalNetwork)`,message=`router enableSNAT can be set only with externalNetwork: the gateway of an existing router is not the controller's to set`,fieldPath=`.enableSNAT`,reason=FieldValueForbidden
type NetworkRouter struct {
	// ExternalNetwork names the external network (router:external) the controller's
	// router has its gateway on, by exactly one of id and name. The router is made in the
	// Network's project, named and marked like its network, and deleted with it; its
	// gateway is restored when changed by hand.
	// +optional
	ExternalNetwork *NeutronRef `json:"externalNetwork,omitempty"`
	// Existing names a router of the Network's project, by exactly one of id and name.
	// The controller only attaches the subnets to it and detaches them again; the router
	// itself stays as it is.
	// +optional
	Existing *NeutronRef `json:"existing,omitempty"`
	// Subnets are the names of the items of spec.subnets to attach; omitted attaches
	// every subnet of the Network.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=63
	Subnets []string `json:"subnets,omitempty"`
	// EnableSNAT sets source NAT on the gateway of the controller's router; omitted
	// leaves it to Neutron (on). Neutron's default policy lets only admins set it: in
	// such a cloud a member's Network that sets it is refused (InvalidSpec, naming this
	// field) and nothing is made.
	// +optional
	EnableSNAT *bool `json:"enableSNAT,omitempty"`
}

// NeutronRef names a Neutron resource by exactly one of id and name.
// +kubebuilder:validation:XValidation:rule=`has(self.id) != has(self.name)`,message=`must name exactly one of id or name`
type NeutronRef struct {
	// ID is the resource's ID (a UUID).
	// +optional
	// +kubebuilder:validation:MaxLength=36
	// +kubebuilder:validation:XValidation:rule=`self.matches('^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$')`,message=`id must be the UUID of a Neutron resource, such as 5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f`
	ID string `json:"id,omitempty"`
	// Name is the resource's exact name; exactly one the project can see must have it.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name,omitempty"`
}

// RouterStatus is what the controller last observed of the Network's router.
type RouterStatus struct {
	// RouterID is the ID (a UUID) of the router.
	// +kubebuilder:validation:MaxLength=36
	RouterID string `json:"routerID"`
	// Owned says that the controller made the router (spec.router.externalNetwork) and
	// deletes it with the Network.
	Owned bool `json:"owned"`
	// ExternalGatewayAddresses are the addresses of the router's gateway on the external
	// network.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=39
	ExternalGatewayAddresses []string `json:"externalGatewayAddresses,omitempty"`
	// SubnetIDs are the Network's subnets attached to the router.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=36
	SubnetIDs []string `json:"subnetIDs,omitempty"`
}
