package v1

// NetworkImport names an existing Neutron network by exactly one of networkID and
// networkName.
type NetworkImport struct {
	// NetworkID is the ID (a UUID) of the Neutron network.
	// +optional
	// +kubebuilder:validation:MaxLength=36
	// +kubebuilder:validation:XValidation:rule=`self.matches('^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$')`,message=`import networkID must be the UUID of a Neutron network, such as 5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f`
	NetworkID string `json:"networkID,omitempty"`
	// NetworkName is the exact name of the Neutron network. Exactly one network visible
	// to the credentials may have it: none, or several, keep the Network Ready=False
	// (ImportNotFound, ImportAmbiguous) until that changes in Neutron.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	NetworkName string `json:"networkName,omitempty"`
}

// DeletionPolicy says what becomes of a Network's Neutron resources when it is deleted.
// +kubebuilder:validation:Enum=Delete;Retain
// +kubebuilder:validation:MaxLength=6
type DeletionPolicy string

const (
	// DeletionPolicyDelete deletes the Neutron network, its subnets and the router the
	// controller made with the Network.
	DeletionPolicyDelete DeletionPolicy = "Delete"
	// DeletionPolicyRetain keeps them, without this cluster's marks.
	DeletionPolicyRetain DeletionPolicy = "Retain"
)

// HostRoute is a route to destination through nextHop.
type HostRoute struct {
	// Destination is the CIDR the route leads to, e.g. 10.20.0.0/16, in canonical form
	// (host bits zero); 0.0.0.0/0 or ::/0 for a default route.
	// +kubebuilder:validation:MaxLength=43
	// +kubebuilder:validation:XValidation:rule=`isCIDR(self)`,message=`hostRoutes destination must be a valid IPv4 or IPv6 CIDR such as 10.20.0.0/16 or 2001:db8:20::/48`,messageExpression=`'hostRoutes destination "'+self+'" is not a valid IPv4 or IPv6 CIDR such as 10.20.0.0/16 or 2001:db8:20::/48'`
	Destination string `json:"destination"`
	// NextHop is the IP address of the router to send the traffic to, e.g. 10.0.0.254,
	// in canonical form.
	// +kubebuilder:validation:MaxLength=39
	// +kubebuilder:validation:XValidation:rule=`isIP(self)`,message=`hostRoutes nextHop must be a valid IPv4 or IPv6 address such as 10.0.0.254 or 2001:db8::fe`,messageExpression=`'hostRoutes nextHop "' + self + '" is not a valid IPv4 or IPv6 address such as 10.0.0.254 or 2001:db8::fe'`
	NextHop string `json:"nextHop"`
}

// GatewayMode says whether a subnet has a gateway.
// +kubebuilder:validation:Enum=Automatic;None
// +kubebuilder:validation:MaxLength=9
type GatewayMode string

const (
	// GatewayModeAutomatic gives the subnet a gateway: the spec's, or the first usable address.
	GatewayModeAutomatic GatewayMode = "Automatic"
	// GatewayModeNone makes a subnet without gateway.
	GatewayModeNone GatewayMode = "None"
)

// The order rule of AllocationPool is IPv4 only, comparing the addresses as integers
// (see the broadcast rule of NetworkSpec); the CEL IP library cannot order addresses,
// so the controller checks IPv6.

// +kubebuilder:validation:XValidation:rule=`!isIP(self.start) || !isIP(self.end) || ip(self.start).family() == ip(self.end).family()`,message=`allocationPools start and end must be of the same IP family`,messageExpression=`'allocationPools pool '+self.start+'-'+self.end+' mixes IPv4 and IPv6'`

// AllocationPool is an inclusive range of addresses, from start to end, that Neutron
// hands out to ports.
type AllocationPool struct {
	// Start is the first address of the range, e.g. 10.0.0.100.
	// +kubebuilder:validation:MaxLength=39
	// +kubebuilder:validation:XValidation:rule=`isIP(self)`,message=`allocationPools start must be a valid IPv4 or IPv6 address`,messageExpression=`'allocationPools start "' + self + '" is not a valid IPv4 or IPv6 address such as 10.0.0.100 or 2001:db8::100'`
	Start string `json:"start"`
	// End is the last address of the range, e.g. 10.0.0.199.
	// +kubebuilder:validation:MaxLength=39
	// +kubebuilder:validation:XValidation:rule=`isIP(self)`,message=`allocationPools end must be a valid IPv4 or IPv6 address`,messageExpression=`'allocationPools end "' + self + '" is not a valid IPv4 or IPv6 address such as 10.0.0.199 or 2001:db8::199'`
	End string `json:"end"`
}

// IPv6Mode is one of Neutron's IPv6 address or router advertisement modes.
// +kubebuilder:validation:Enum=slaac;dhcpv6-stateful;dhcpv6-stateless
// +kubebuilder:validation:MaxLength=16
type IPv6Mode string

const (
	IPv6ModeSLAAC           IPv6Mode = "slaac"
	IPv6ModeDHCPv6Stateful  IPv6Mode = "dhcpv6-stateful"
	IPv6ModeDHCPv6Stateless IPv6Mode = "dhcpv6-stateless"
)

// CloudCredentialsRef names the credentials of a Network's project: a cloud of a
// clouds.yaml in a Secret of the Network's namespace, or a ClusterIdentity that delegates
// a project to the namespace.
// +kubebuilder:validation:XValidation:rule=`has(self.secretName) != has(self.clusterIdentity)`,message=`cloudCredentialsRef must name exactly one of secretName (a Secret of the namespace) or clusterIdentity (a project the operator delegates)`
// +kubebuilder:validation:XValidation:rule=`has(self.secretName) == has(self.cloudName)`,message=`cloudName must be set exactly when secretName is: a ClusterIdentity names its cloud itself`,fieldPath=`.cloudName`
type CloudCredentialsRef struct {
	// SecretName is the name of a Secret in the Network's namespace with the key
	// clouds.yaml and, for a private CA, the key cacert (PEM).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	SecretName string `json:"secretName,omitempty"`
	// CloudName is the entry of clouds.yaml to authenticate as; set exactly when
	// secretName is.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	CloudName string `json:"cloudName,omitempty"`
	// ClusterIdentity names a ClusterIdentity with a secretRef whose namespaceSelector
	// selects the Network's namespace: the Network lives in the project of that
	// identity's Secret, which the namespace never sees, with the powers the identity
	// allows.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	ClusterIdentity string `json:"clusterIdentity,omitempty"`
}

// Delegated reports whether the credentials are those of a ClusterIdentity.
func (r *CloudCredentialsRef) Delegated() bool { return r != nil && r.ClusterIdentity != "" }

// OwnSecret reports whether the credentials are in a Secret of the Network's namespace.
func (r *CloudCredentialsRef) OwnSecret() bool { return r != nil && r.ClusterIdentity == "" }

// ProjectID is the ID of an OpenStack project, as Keystone gives it (32 hex digits by
// default). Checked at admission because it is sent to Neutron as it is.
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=64
// +kubebuilder:validation:XValidation:rule=`self != '*'`,message=`sharedWith cannot name "*" (every project): only a cloud admin may share a network with every project; list the IDs of the projects to share with`
// +kubebuilder:validation:XValidation:rule=`self.matches('^([*]|[0-9A-Za-z_-]+)$')`,message=`sharedWith items must be OpenStack project IDs`,messageExpression=`'sharedWith item "' + self + '" is not an OpenStack project ID (letters, digits, "-" and "_"), such as 8d3c2b1a0f9e4d7c6b5a49382716f0e1'`
type ProjectID string
