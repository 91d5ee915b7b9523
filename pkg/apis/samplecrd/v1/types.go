package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// samplecrd.k8s.io is a protected *.k8s.io group: without the api-approved annotation
// the apiserver refuses the CRD (KEP-1111).
//
// The CIDR, Gateway, Use, DHCP and MTU columns show status, what is in effect in Neutron:
// the gateway is filled in even when the spec leaves it to the default (the first usable
// address), CIDR has a pool item's allocated range, and each stays empty until the
// controller has configured the subnets. Gateway and DHCP are the one-subnet form's; Use
// is the list form's fullest subnet. DNS
// shows the spec: once Ready, the subnet has exactly these (the controller enforces
// "none" too). Import is set only for a Network that imports a network the controller
// did not create.

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:path=networks,singular=network,scope=Namespaced,shortName=net,categories=openstack
// +kubebuilder:subresource:status
// +kubebuilder:metadata:annotations=`api-approved.kubernetes.io=unapproved, experimental-only; this is a sample API outside the Kubernetes project`
// +kubebuilder:printcolumn:name=CIDR,type=string,JSONPath=`.status.cidrs`,description=`CIDRs in effect on the Network's subnets.`
// +kubebuilder:printcolumn:name=Gateway,type=string,JSONPath=`.status.gateway`,description=`Gateway in effect on the subnet of the one-subnet form or of an import.`
// +kubebuilder:printcolumn:name=Import,type=string,JSONPath=`.spec.import`,description=`The existing Neutron network this Network imports (read-only), by ID or name.`
// +kubebuilder:printcolumn:name=Ready,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`,description=`Whether Neutron matches the spec.`
// +kubebuilder:printcolumn:name=Reason,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,description=`Reason of the Ready condition.`
// +kubebuilder:printcolumn:name=Use,type=string,JSONPath=`.status.addressUse`,description=`Address use of the fullest subnet of the list form.`
// +kubebuilder:printcolumn:name=Age,type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:printcolumn:name=Message,type=string,priority=1,JSONPath=`.status.conditions[?(@.type=="Ready")].message`,description=`Message of the Ready condition.`
// +kubebuilder:printcolumn:name=Subnet,type=string,priority=1,JSONPath=`.status.subnetID`,description=`ID of the Neutron subnet of the one-subnet form or of an import.`
// +kubebuilder:printcolumn:name=Project,type=string,priority=1,JSONPath=`.status.projectID`,description=`OpenStack project of the Neutron network.`
// +kubebuilder:printcolumn:name=MTU,type=integer,priority=1,JSONPath=`.status.mtu`,description=`MTU in effect on the Neutron network.`
// +kubebuilder:printcolumn:name=DNS,type=string,priority=1,JSONPath=`.spec.dnsNameservers`,description=`DNS servers the one-subnet form's DHCP hands out.`
// +kubebuilder:printcolumn:name=DHCP,type=boolean,priority=1,JSONPath=`.status.enableDHCP`,description=`Whether Neutron runs DHCP on the subnet of the one-subnet form or of an import.`
// +kubebuilder:printcolumn:name=`Last Sync`,type=date,priority=1,JSONPath=`.status.lastSyncTime`,description=`When Neutron was last compared with the spec.`
// +kubebuilder:printcolumn:name=`Deletion Policy`,type=string,priority=1,JSONPath=`.spec.deletionPolicy`,description=`What becomes of the Neutron network, its subnets and the router the controller made when the Network is deleted.`

// Network is one OpenStack Neutron network that the controller creates in the project of
// its credentials, with its subnets in one of two forms: one subnet described at the top
// of the spec (cidr, gateway, ...: the one-subnet form), or one subnet per item of
// spec.subnets (the list form). Optionally its subnets are attached to a router
// (spec.router) and the network is shared with other projects (spec.sharedWith). The
// controller keeps what Neutron can change in place as the spec says and, when the
// Network is deleted, deletes the network with its subnets and the router it made, or
// keeps them when spec.deletionPolicy is Retain and the project allows it. With
// spec.import, it is instead a read-only view of an existing network that the controller
// did not create.
type Network struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired Neutron network: its subnets, either the one-subnet form (cidr,
	// gateway and the other subnet fields at the top of the spec) or subnets (the list
	// form), one of the two required unless import is set; and, optionally, its mtu and
	// portSecurityEnabled, a router, the projects it is sharedWith, its deletionPolicy and
	// the cloudCredentialsRef of its project. With import, it names an existing network
	// instead, and only cidr and cloudCredentialsRef may be set besides.
	Spec NetworkSpec `json:"spec"`

	// The default makes status read back as observedGeneration 0 until the controller
	// writes one, so that GitOps tools (kstatus) see a new Network as in progress, not
	// done.
	// +kubebuilder:default={}

	// Status is what the controller last observed and did.
	// +optional
	Status NetworkStatus `json:"status,omitempty"`
}

// The rules of NetworkSpec below, and those of its fields, refuse an invalid spec at
// admission; the rules of one subnet are on SubnetFields (subnet_fields.go), those of an
// item of spec.subnets on NetworkSubnet (subnets.go). They use the Kubernetes CEL
// IP/CIDR libraries (CEL environment 1.30) and compare IP and CIDR values, so the CRD
// needs a Kubernetes 1.32 or newer apiserver (1.31 prices such a comparison as unbounded
// and refuses the CRD). In the order of the markers:
//
// A Network needs a subnet: cidr (the one-subnet form), subnets (the list form) or
// import.
//
// What import allows: the fields only a created network takes are refused with it,
// each in a message of its own that names it; so is subnets.
//
// The two forms are exclusive: with subnets, each field of the one-subnet form is
// refused in a message of its own that names it (the defaults spelled out too, as with
// import), so that a move to the list form that left one behind says which.
//
// What cannot be added or removed once the Network exists. cidr and the IPv6 modes at
// the top may go (or come) only together with subnets coming (or going): that is the
// move of the subnet between the two forms, which keeps the Neutron subnet (matched by
// cidr). Adding or removing subnets otherwise is refused by the rules above: a subnet
// is required, subnets is refused with import and with the one-subnet form.
//
// IPv6 needs an MTU of at least 1280 (RFC 8200), with cidr or with any item of subnets
// whose cidr is IPv6 (the family of a subnet-pool item is unknown until Neutron allocates
// its range, so admission cannot tell). The rules are quiet on a cidr change (see
// SubnetFields; for an item, a change of its cidr under the same name), when the cidr
// does not parse, and when mtu is outside 68-9216: those get only their own field's
// message. (A messageExpression sees oldSelf without optionalOldSelf's wrapping, null on
// a create, so the item's message names the first IPv6 item without that guard.)
//
// A subnet kept by cidr keeps its IPv6 modes, which Neutron cannot change: an item
// that takes over the subnet of another item (a rename: same cidr, new name) or of the
// one-subnet form, and the one-subnet form that takes over the subnet of an item, must
// have the same ipv6AddressMode and ipv6RAMode as before. (The same item under the same
// name is held by its own rules.) Text equality is cidr equality: cidrs are canonical.

// +kubebuilder:validation:XValidation:rule=`has(self.cidr) || has(self.subnets) || has(self.import)`,message=`cidr is required, unless import names an existing network or subnets lists the subnets (the list form)`,fieldPath=`.cidr`,reason=FieldValueRequired
// +kubebuilder:validation:XValidation:rule=`!has(self.router) || !has(self.router.subnets) || has(self.subnets)`,message=`router subnets can be set only with subnets (the list form): the one-subnet form has one subnet, which is attached`,fieldPath=`.router.subnets`
// +kubebuilder:validation:XValidation:rule=`has(self.import) == has(oldSelf.import)`,message=`import cannot be added or removed once the Network exists: create a new Network instead`,fieldPath=`.import`,reason=FieldValueInvalid

// NetworkSpec is the desired Neutron network. Its subnets take one of two exclusive
// forms: the one-subnet form, one subnet described by the fields of SubnetFields at the
// top of the spec (cidr, gateway, gatewayMode, allocationPools, dnsNameservers,
// hostRoutes, enableDHCP, ipv6AddressMode, ipv6RAMode), or the list form, subnets, one
// Neutron subnet per item. Beside them, each optional: the network's mtu and
// portSecurityEnabled, a router its subnets are attached to, the projects it is
// sharedWith, its deletionPolicy and the cloudCredentialsRef of its project. With import,
// the spec names an existing network instead, and only cidr and cloudCredentialsRef may
// be set besides.
type NetworkSpec struct {
	// SubnetFields are the one-subnet form: a Network with one subnet, described at the
	// top of its spec. Exclusive with subnets.
	SubnetFields `json:",inline"`

	// A rule rather than minimum/maximum, for a message that says what the number is. 68
	// is the IPv4 minimum; 9216 the largest common jumbo frame.
	// +kubebuilder:validation:XValidation:rule=`self >= 68 && self <= 9216`,message=`mtu must be between 68 and 9216 (the Neutron network's MTU in bytes)`

	// MTU of the Neutron network in bytes, 68 to 9216, and at least 1280 when cidr, or
	// the cidr of an item of subnets, is IPv6. It can be changed in place. Omit it to
	// leave the MTU to Neutron: Neutron picks its default and the controller leaves the
	// network's MTU alone. Neutron refuses an MTU above what its physical network allows
	// (the Network is then Ready=False, InvalidSpec). An item with subnetPool is not
	// checked at admission: its family is unknown until Neutron allocates its range.
	// +optional
	MTU *int32 `json:"mtu,omitempty"`

	// Two prefixes overlap exactly when one holds the other's first address (a prefix
	// holds no address of the other family). An item whose cidr does not parse gets only
	// its own field's message; subnet-pool items are Neutron's to keep apart. MaxItems
	// bounds the cost of comparing all pairs.

	// Subnets are the list form: up to 8 subnets on the network, each keyed by its name,
	// for example an IPv4 and an IPv6 subnet (dual stack). Exclusive with the one-subnet
	// form at the top of the spec, and with import. No two items may overlap. An item can
	// be added, changed in place, or removed (its subnet is then deleted, once no port
	// uses it). A Network with cidr can move its subnet here in one update (cidr and the
	// other fields at the top removed, an item with the same cidr and the same IPv6 modes
	// added), and back, keeping the Neutron subnet.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=8
	Subnets []NetworkSubnet `json:"subnets,omitempty"`

	// Router attaches the network's subnets (or those router.subnets names) to a router:
	// one the controller makes, with its gateway on router.externalNetwork, or the
	// project's router router.existing. It may be added, changed or removed: the subnets
	// are detached first, and a router the controller made is deleted.
	// +optional
	Router *NetworkRouter `json:"router,omitempty"`

	// PortSecurityEnabled turns Neutron's port security (security groups and the
	// anti-spoofing rules) on or off for the network: Neutron gives it to every port made on
	// the network afterwards. Appliances that route or forward traffic in a VM need it off.
	// Omit it to leave it to Neutron (on by default), and the controller leaves the
	// network's setting alone. It changes in place; a change made in Neutron by hand is
	// undone.
	// +optional
	PortSecurityEnabled *bool `json:"portSecurityEnabled,omitempty"`

	// QoSPolicy sets the network's Neutron QoS policy, by exactly one of id and name: a
	// policy of the Network's project, or one Neutron shares with it. Neutron gives its
	// rules to the network's ports. A name must match exactly one policy the project can
	// see (ReferenceNotFound, ReferenceAmbiguous). In a project the cluster's operator
	// hands out (the controller's own cloud, or a ClusterIdentity's) the policy needs a
	// ClusterIdentity's allow.qosPolicies (NotGranted). It changes in place; removing it
	// gives the network what Neutron gives a new one: the project's default QoS policy,
	// or none when the project has no default. A change made in Neutron by hand is
	// undone. Omitted from the start, the network's policy is left alone (a new network
	// gets the project's default from Neutron).
	// +optional
	QoSPolicy *NeutronRef `json:"qosPolicy,omitempty"`

	// A rule beside the pattern, which cannot say it: Neutron refuses a top-level label of
	// digits only when there are several labels.
	// +kubebuilder:validation:XValidation:rule=`!self.matches('[.][0-9]+[.]$')`,message=`dnsDomain must not end in a top-level label of digits only (e.g. example.org., not example.123.)`

	// DNSDomain sets the network's Neutron dns_domain: the DNS domain Neutron gives the
	// names of the network's ports (dns_name) and, with an external DNS service
	// (Designate), the zone they are published in. A fully qualified domain name ending
	// with a dot, such as example.org.: labels of 1 to 63 lower-case letters, digits and
	// hyphens (none at a label's start or end), at most 253 characters, as Neutron takes it.
	// It needs Neutron's dns-integration extension: a Neutron without it refuses the
	// attribute (InvalidSpec). It changes in place; removing it clears the network's
	// domain; a change made in Neutron by hand is undone. Omitted from the start, the
	// network's domain is left alone.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\.)+$`
	DNSDomain *string `json:"dnsDomain,omitempty"`

	// SharedWith lists up to 16 OpenStack project IDs the network is shared with: one
	// Neutron RBAC policy (access_as_shared) per project lets that project's users see the
	// network and make ports on it. A project dropped from the list loses access once no
	// port of it is left on the network; a policy deleted in Neutron by hand is made again,
	// one made by hand for a project not listed is deleted. "*" (every project) is
	// refused: only a cloud admin may share a network with everyone.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	SharedWith []ProjectID `json:"sharedWith,omitempty"`

	// CloudCredentialsRef names the credentials of the OpenStack project the Network
	// lives in: a Secret in the Network's own namespace whose clouds.yaml says how to
	// authenticate (secretName, cloudName), or a ClusterIdentity the cluster's operator
	// made to delegate a project to the namespace (clusterIdentity). Omit it to use the
	// controller's own cloud (refused when the controller runs with
	// -require-credentials-ref). It may change, to rotate credentials through a new
	// Secret, but once the Network has a project (status.projectID), credentials of
	// another project are refused (CredentialsProjectChanged).
	// +optional
	CloudCredentialsRef *CloudCredentialsRef `json:"cloudCredentialsRef,omitempty"`
	// DeletionPolicy says what becomes of the Neutron network, its subnets and the router
	// the controller made for it when the Network is deleted. Delete (the default) deletes
	// them. Retain keeps them and removes every mark that ties them to this cluster (its
	// tags, its description, the Network's UID in their names, which become
	// <namespace>/<name>), so that the controller never touches them again. In a project
	// the cluster's operator hands out (the controller's own cloud, or a ClusterIdentity's)
	// Retain needs a ClusterIdentity's allow.retain; without it they are deleted. It can be
	// changed at any time: the value in force when the deletion is carried out wins.
	// +optional
	DeletionPolicy DeletionPolicy `json:"deletionPolicy,omitempty"`
	// Import makes this Network a read-only view of an existing Neutron network that the
	// controller did not create (made by hand, by Terraform, or shared with the project
	// by the cloud's admin), named by exactly one of networkID or networkName. The
	// network is looked up with the Network's credentials and reported in status; nothing
	// is ever created, changed, tagged or deleted in Neutron for it, and deleting the
	// Network leaves it alone. A network this cluster's controller created cannot be
	// imported. Immutable, and cannot be added or removed later. With import, only cidr
	// (to choose a subnet) and cloudCredentialsRef may be set besides it.
	// +optional
	// +kubebuilder:validation:XValidation:rule=`has(self.networkID) != has(self.networkName)`,message=`import must name exactly one of networkID or networkName`
	// +kubebuilder:validation:XValidation:rule=`self == oldSelf`,message=`import is immutable`
	Import *NetworkImport `json:"import,omitempty"`
	// DriftCheck sets how often the Network is compared with Neutron (period) and whether
	// what differs is repaired or only reported (policy). Omitted: the controller's
	// default period, and Repair.
	// +optional
	DriftCheck *DriftCheck `json:"driftCheck,omitempty"`
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

// NetworkStatus is what the controller last observed and did.
type NetworkStatus struct {
	// ObservedGeneration is the metadata.generation the status describes. The
	// conditions are stale while it is lower than metadata.generation; it is 0 until the
	// controller first writes the status.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=0
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// ProjectID is the OpenStack project the Neutron resources were created in. Once set,
	// credentials that resolve to another project are refused, so nothing is created
	// twice or left behind in the first one.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	ProjectID string `json:"projectID,omitempty"`
	// Region is the region of the Neutron the resources were created in, as Keystone's
	// catalog names it; empty when it names none. Like the project, it is pinned once
	// set: credentials that lead to another region are refused
	// (CredentialsRegionChanged).
	// +optional
	// +kubebuilder:validation:MaxLength=255
	Region string `json:"region,omitempty"`
	// Conditions of the Network. Ready summarises whether the Neutron network and its
	// subnets exist and match the spec; its reason tells what the controller is doing or waiting
	// for (Provisioned, Provisioning, NeutronUnavailable, NeutronConflict, OverQuota,
	// InvalidSpec, SubnetInUse, NeutronResourceNotOwned, RouterNotFound, ReferenceNotFound,
	// ReferenceAmbiguous; for an import Imported,
	// ImportNotFound, ImportAmbiguous, ImportedNetworkDeleted, ImportSubnetNotFound,
	// ImportSubnetAmbiguous, ImportManagedNetwork). Beside it, as kstatus expects,
	// Reconciling is True while the controller works towards the spec (Creating,
	// Updating, or a transient Ready reason it retries) and Stalled is True, with Ready's
	// reason and message, when only a change of the spec, of its Secret or of the
	// imported network can help; each is removed when it no longer holds.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// NetworkID is the ID (a UUID) of the Neutron network.
	// +optional
	// +kubebuilder:validation:MaxLength=36
	NetworkID string `json:"networkID,omitempty"`
	// SubnetID is the ID (a UUID) of the Neutron subnet of the one-subnet form or of an
	// import; the list form's are in subnets.
	// +optional
	// +kubebuilder:validation:MaxLength=36
	SubnetID string `json:"subnetID,omitempty"`
	// Gateway is the gateway address in effect on the subnet of the one-subnet form (the
	// spec's gateway, or the first usable address when the spec has none) or of an
	// import; empty for a subnet without gateway (gatewayMode None).
	// +optional
	// +kubebuilder:validation:MaxLength=39
	Gateway string `json:"gateway,omitempty"`
	// MTU is the MTU in effect on the Neutron network, as Neutron reports it.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MTU int32 `json:"mtu,omitempty"`
	// PortSecurityEnabled is the network's port security as Neutron reports it; unset
	// when Neutron has no port security extension.
	// +optional
	PortSecurityEnabled *bool `json:"portSecurityEnabled,omitempty"`
	// QoSPolicyID is the ID of the QoS policy spec.qosPolicy set on the network, as
	// Neutron reports it; empty without spec.qosPolicy, and while no grant allows the
	// policy it names and the policy is not kept.
	// +optional
	// +kubebuilder:validation:MaxLength=36
	QoSPolicyID string `json:"qosPolicyID,omitempty"`
	// DNSDomain is the dns_domain spec.dnsDomain set on the network, as Neutron reports
	// it; empty without spec.dnsDomain.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	DNSDomain string `json:"dnsDomain,omitempty"`
	// EnableDHCP says whether Neutron runs DHCP on the subnet of the one-subnet form or of
	// an import, as Neutron reports it.
	// +optional
	EnableDHCP *bool `json:"enableDHCP,omitempty"`
	// Subnets are the subnets of the list form (spec.subnets), by item name, as
	// Neutron holds them. status.subnetID, gateway and enableDHCP describe only the
	// one-subnet form.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	Subnets []SubnetStatus `json:"subnets,omitempty"`
	// CIDRs are the CIDRs in effect on the Network's subnets, comma-separated, in the
	// order of the spec: what kubectl get shows.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	CIDRs string `json:"cidrs,omitempty"`
	// AddressUse is the use of the fullest subnet of the list form, e.g. "ipv4 12%
	// (30/253)", as last counted: what kubectl get shows.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	AddressUse string `json:"addressUse,omitempty"`
	// Router is the router the Network's subnets are attached to.
	// +optional
	Router *RouterStatus `json:"router,omitempty"`
	// SharedWith are the projects the network is shared with, each with the Neutron RBAC
	// policy that shares it: those of spec.sharedWith, and those still being unshared.
	// +optional
	// +listType=map
	// +listMapKey=projectID
	// +kubebuilder:validation:MaxItems=32
	SharedWith []ProjectShare `json:"sharedWith,omitempty"`
	// LastSyncTime is when the controller last compared the Network's Neutron side with
	// its spec: the time of the list of the project's resources its last drift check used,
	// or of its last pass that changed Neutron. Writes of status for other reasons leave
	// it. kubectl get -o wide shows it.
	// +optional
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:Format=date-time
	// +kubebuilder:validation:MaxLength=64
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`
}

// ProjectShare is a project a network is shared with.
type ProjectShare struct {
	// ProjectID is the ID of the project.
	// +kubebuilder:validation:MaxLength=64
	ProjectID string `json:"projectID"`
	// RBACPolicyID is the ID (a UUID) of the Neutron RBAC policy that shares the network.
	// +kubebuilder:validation:MaxLength=36
	RBACPolicyID string `json:"rbacPolicyID"`
}
