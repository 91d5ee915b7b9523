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
// IP/CIDR libraries (CEL environment 1.30), so the CRD needs a Kubernetes 1.31 or newer
// apiserver. In the order of the markers:
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
