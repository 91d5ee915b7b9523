package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Network is a request for one OpenStack Neutron network with one subnet, or, with
// spec.import, a read-only view of one the controller did not create.
// crd/network.yaml holds its OpenAPI schema; a test keeps the two in step.
type Network struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   NetworkSpec   `json:"spec"`
	Status NetworkStatus `json:"status,omitempty"`
}

// NetworkSpec is the desired Neutron network.
type NetworkSpec struct {
	// CIDR of the subnet, IPv4 or IPv6, in canonical form (host bits zero).
	// It cannot be changed once set: Neutron cannot change a subnet's range in place.
	// Required unless Import is set; with Import it chooses the imported network's
	// subnet, and may be omitted when that network has exactly one.
	// +optional
	CIDR string `json:"cidr,omitempty"`
	// Gateway of the subnet: an address inside CIDR that is neither the network address
	// nor the IPv4 broadcast address. Empty means the first usable address.
	// +optional
	Gateway string `json:"gateway,omitempty"`
	// GatewayMode is Automatic (the default: Gateway, or the first usable address when
	// Gateway is empty) or None (a subnet without gateway; Gateway must then be empty).
	// It can be changed in place.
	// +optional
	GatewayMode GatewayMode `json:"gatewayMode,omitempty"`
	// AllocationPools are the ranges Neutron hands out addresses from: at most 16, each
	// inside CIDR with start <= end, not overlapping, holding neither the gateway nor the
	// network address nor the IPv4 broadcast address. Omitted means every usable address
	// but the gateway. They can be changed in place.
	// +optional
	// +listType=atomic
	AllocationPools []AllocationPool `json:"allocationPools,omitempty"`
	// MTU of the Neutron network in bytes, 68 to 9216, and at least 1280 when CIDR is
	// IPv6. It can be changed in place. Omitted means not managed: Neutron picks its
	// default and the controller leaves the network's MTU alone.
	// +optional
	MTU *int32 `json:"mtu,omitempty"`
	// DNSNameservers are the DNS servers the subnet's DHCP hands out, in the order
	// resolvers try them: at most 5 IP addresses, each once. Omitted means none.
	// +optional
	// +listType=atomic
	DNSNameservers []string `json:"dnsNameservers,omitempty"`
	// HostRoutes are the routes the subnet's DHCP hands out, at most 20, one per
	// destination, of the family of CIDR. Omitted means none.
	// +optional
	// +listType=map
	// +listMapKey=destination
	HostRoutes []HostRoute `json:"hostRoutes,omitempty"`
	// EnableDHCP says whether Neutron runs DHCP on the subnet. Omitted means true.
	// +optional
	EnableDHCP *bool `json:"enableDHCP,omitempty"`
	// IPv6AddressMode says how hosts on an IPv6 subnet get addresses: slaac,
	// dhcpv6-stateful or dhcpv6-stateless. IPv6 only; equal to IPv6RAMode when both are
	// set; slaac and dhcpv6-stateless need a /64; needs DHCP. Immutable, as are its
	// addition and removal: Neutron cannot change it. Omitted means none.
	// +optional
	IPv6AddressMode IPv6Mode `json:"ipv6AddressMode,omitempty"`
	// IPv6RAMode says what Neutron's router advertisements tell hosts, with the same
	// values and rules as IPv6AddressMode. Immutable. Omitted means none.
	// +optional
	IPv6RAMode IPv6Mode `json:"ipv6RAMode,omitempty"`
	// CloudCredentialsRef names the Secret, in the Network's own namespace, whose
	// clouds.yaml gives the OpenStack project the Network lives in. Omitted means the
	// controller's own cloud, unless the controller requires a reference.
	// +optional
	CloudCredentialsRef *CloudCredentialsRef `json:"cloudCredentialsRef,omitempty"`
	// DeletionPolicy says what becomes of the Neutron network and subnet when the Network
	// is deleted: Delete (the default) deletes them; Retain keeps them and removes every
	// mark that ties them to this cluster, so that the controller never touches them
	// again. It can be changed at any time: the value in force when the deletion is
	// carried out wins.
	// +optional
	DeletionPolicy DeletionPolicy `json:"deletionPolicy,omitempty"`
	// Import makes this Network a read-only view of an existing Neutron network that the
	// controller did not create: it is looked up with the Network's credentials and
	// reported in status, and nothing is ever created, changed, tagged or deleted in
	// Neutron for it. Immutable, as are its addition and removal. With Import, only CIDR
	// and CloudCredentialsRef may be set besides it.
	// +optional
	Import *NetworkImport `json:"import,omitempty"`
}

// NetworkImport names an existing Neutron network by exactly one of NetworkID and
// NetworkName.
type NetworkImport struct {
	// NetworkID is the ID of the Neutron network.
	// +optional
	NetworkID string `json:"networkID,omitempty"`
	// NetworkName is the exact name of the Neutron network; exactly one network visible
	// to the credentials must have it.
	// +optional
	NetworkName string `json:"networkName,omitempty"`
}

// DeletionPolicy says what becomes of a Network's Neutron resources when it is deleted.
type DeletionPolicy string

const (
	// DeletionPolicyDelete deletes the Neutron network and subnet with the Network.
	DeletionPolicyDelete DeletionPolicy = "Delete"
	// DeletionPolicyRetain keeps them, without this cluster's marks.
	DeletionPolicyRetain DeletionPolicy = "Retain"
)

// HostRoute is a route to Destination through NextHop.
type HostRoute struct {
	// Destination is the CIDR the route leads to, in canonical form.
	Destination string `json:"destination"`
	// NextHop is the IP address of the router to send that traffic to.
	NextHop string `json:"nextHop"`
}

// GatewayMode says whether a subnet has a gateway.
type GatewayMode string

const (
	// GatewayModeAutomatic gives the subnet a gateway: the spec's, or the first usable address.
	GatewayModeAutomatic GatewayMode = "Automatic"
	// GatewayModeNone makes a subnet without gateway.
	GatewayModeNone GatewayMode = "None"
)

// AllocationPool is an inclusive range of addresses Neutron hands out to ports.
type AllocationPool struct {
	// Start is the first address of the range.
	Start string `json:"start"`
	// End is the last address of the range.
	End string `json:"end"`
}

// IPv6Mode is one of Neutron's IPv6 address or router advertisement modes.
type IPv6Mode string

const (
	IPv6ModeSLAAC           IPv6Mode = "slaac"
	IPv6ModeDHCPv6Stateful  IPv6Mode = "dhcpv6-stateful"
	IPv6ModeDHCPv6Stateless IPv6Mode = "dhcpv6-stateless"
)

// CloudCredentialsRef names a cloud in a clouds.yaml kept in a Secret.
type CloudCredentialsRef struct {
	// SecretName is the name of a Secret in the Network's namespace with the key
	// clouds.yaml and, for a private CA, the key cacert (PEM).
	SecretName string `json:"secretName"`
	// CloudName is the entry of clouds.yaml to authenticate as.
	CloudName string `json:"cloudName"`
}

// NetworkStatus is what the controller last observed and did.
type NetworkStatus struct {
	// ObservedGeneration is the metadata.generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// ProjectID is the OpenStack project the Neutron resources were created in. Once
	// set, credentials that resolve to another project are refused, so nothing is
	// created twice or left behind in the first one.
	// +optional
	ProjectID string `json:"projectID,omitempty"`
	// Region is the region of the Neutron the resources were created in, as Keystone's
	// catalog names it; empty when it names none. Like the project, it is pinned once set.
	// +optional
	Region string `json:"region,omitempty"`
	// Conditions; Ready summarises whether the Neutron side matches the spec.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// NetworkID is the ID of the Neutron network.
	// +optional
	NetworkID string `json:"networkID,omitempty"`
	// SubnetID is the ID of the Neutron subnet.
	// +optional
	SubnetID string `json:"subnetID,omitempty"`
	// Gateway is the gateway address in effect on the Neutron subnet; empty for a
	// subnet without gateway.
	// +optional
	Gateway string `json:"gateway,omitempty"`
	// MTU is the MTU in effect on the Neutron network.
	// +optional
	MTU int32 `json:"mtu,omitempty"`
	// EnableDHCP says whether Neutron runs DHCP on the subnet, as Neutron reports it.
	// +optional
	EnableDHCP *bool `json:"enableDHCP,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// NetworkList is a list of Network objects.
type NetworkList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`

	Items []Network `json:"items"`
}

// IsImported reports whether the Network imports a network the controller did not create.
func (n *Network) IsImported() bool { return n.Spec.Import != nil }
