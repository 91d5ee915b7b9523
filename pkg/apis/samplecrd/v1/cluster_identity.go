package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:path=clusteridentities,singular=clusteridentity,scope=Cluster,shortName=cid,categories=openstack
// +kubebuilder:subresource:status
// +kubebuilder:metadata:annotations=`api-approved.kubernetes.io=unapproved, experimental-only; this is a sample API outside the Kubernetes project`
// +kubebuilder:printcolumn:name=Secret,type=string,JSONPath=`.spec.secretRef.name`,description=`Secret with the project's clouds.yaml; empty for the controller's own cloud.`
// +kubebuilder:printcolumn:name=Cloud,type=string,JSONPath=`.spec.cloudName`,description=`Entry of the Secret's clouds.yaml.`
// +kubebuilder:printcolumn:name=Ready,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`,description=`Whether the identity can be used.`
// +kubebuilder:printcolumn:name=Reason,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,description=`Reason of the Ready condition.`
// +kubebuilder:printcolumn:name=Namespaces,type=integer,JSONPath=`.status.namespaces`,description=`Namespaces the selector selects.`
// +kubebuilder:printcolumn:name=Networks,type=integer,JSONPath=`.status.networks`,description=`Networks of those namespaces that use the identity.`
// +kubebuilder:printcolumn:name=Age,type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:printcolumn:name=Message,type=string,priority=1,JSONPath=`.status.conditions[?(@.type=="Ready")].message`,description=`Message of the Ready condition.`

// ClusterIdentity is written by the cluster's operator, never by a tenant: it hands an
// OpenStack project (the cloud of a Secret the tenants cannot read, or the controller's
// own cloud) to the namespaces its selector selects, with the powers it allows them there.
type ClusterIdentity struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec says which namespaces may use which project, and with which powers.
	Spec ClusterIdentitySpec `json:"spec"`

	// Status is what the controller last observed of the identity.
	// +optional
	Status ClusterIdentityStatus `json:"status,omitempty"`
}

// ClusterIdentitySpec is the project an identity hands out, to whom, and what it allows.
// +kubebuilder:validation:XValidation:rule=`has(self.secretRef) == has(self.cloudName)`,message=`cloudName must be set exactly when secretRef is: it names the entry of the Secret's clouds.yaml (the controller's own cloud needs neither)`,fieldPath=`.cloudName`,reason=FieldValueRequired
type ClusterIdentitySpec struct {
	// NamespaceSelector selects, by their labels, the namespaces whose Networks may use
	// the identity; {} selects every namespace. Required, so that no identity selects
	// every namespace by omission.
	NamespaceSelector metav1.LabelSelector `json:"namespaceSelector"`
	// SecretRef names the Secret, in a namespace of the operator's that tenants cannot
	// read, whose clouds.yaml (and, for a private CA, cacert) reaches the project. The
	// controller reads it with a Role in that namespace. Omit it for the controller's own
	// cloud: the identity then grants powers there.
	// +optional
	SecretRef *SecretReference `json:"secretRef,omitempty"`
	// CloudName is the entry of the Secret's clouds.yaml; set exactly when secretRef is.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	CloudName string `json:"cloudName,omitempty"`
	// Allow lists the powers that Networks of the selected namespaces have in the
	// project, beyond making networks, subnets and their own routers. Each is off unless
	// listed.
	// +optional
	Allow IdentityAllow `json:"allow,omitempty"`
}

// SecretReference names a Secret in a namespace.
type SecretReference struct {
	// Namespace of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Namespace string `json:"namespace"`
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	Name string `json:"name"`
}

// IdentityAllow are the powers an identity grants in its project: what a Network may do
// there that reaches beyond its own network, subnets and router.
type IdentityAllow struct {
	// Retain allows deletionPolicy: Retain, which leaves a Network's resources in the
	// project when it is deleted.
	// +optional
	Retain bool `json:"retain,omitempty"`
	// Import allows spec.import, which reports a network of the project (or shared
	// with it) that the controller did not make.
	// +optional
	Import bool `json:"import,omitempty"`
	// SharedWith lists the projects that spec.sharedWith may name.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	SharedWith []ProjectID `json:"sharedWith,omitempty"`
	// ExistingRouters lists the routers of the project, by id or by name, that
	// spec.router.existing may name. A router the controller made for a Network is never
	// one, whatever this says.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	ExistingRouters []NeutronRef `json:"existingRouters,omitempty"`
	// QoSPolicies lists the QoS policies the project sees (its own, or those Neutron
	// shares with it), by id or by name, that spec.qosPolicy may name. A policy sets the
	// bandwidth of every port of the network, so it is the operator's to hand out: a
	// grant by id allows that policy only, a grant by name the policy of that name only.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	QoSPolicies []NeutronRef `json:"qosPolicies,omitempty"`
	// RoutersPerNamespace bounds the routers of their own (spec.router.externalNetwork)
	// the Networks of one selected namespace may have in the project; a Network past it
	// is refused. Where several identities select a namespace, the largest bound applies;
	// where none sets one, there is none.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	RoutersPerNamespace *int32 `json:"routersPerNamespace,omitempty"`
}

// ClusterIdentityStatus is what the controller last observed of an identity.
type ClusterIdentityStatus struct {
	// ObservedGeneration is the metadata.generation the status describes.
	// +optional
	// +kubebuilder:validation:Minimum=0
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions of the identity. Ready says whether it can be used: its selector is
	// valid and its Secret, if any, is found and parses (the same strict parse as a
	// tenant's Secret).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Namespaces is the number of namespaces the selector selects.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Namespaces int32 `json:"namespaces"`
	// Networks is the number of Networks of those namespaces that use the identity.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Networks int32 `json:"networks"`
}

// Reasons of a ClusterIdentity's Ready condition.
const (
	// IdentityReasonGranting: the identity grants its powers in the controller's own cloud.
	IdentityReasonGranting = "Granting"
	// IdentityReasonInvalidSelector: spec.namespaceSelector does not parse; the identity
	// selects no namespace.
	IdentityReasonInvalidSelector = "InvalidNamespaceSelector"
	// IdentityReasonDelegating: the identity's Secret is found and parses, and has the cloud
	// spec.cloudName names; the selected namespaces' Networks may name the identity. A
	// Secret that cannot be used gives Ready False with the reason a tenant's Secret
	// would give a Network (CredentialsSecretNotFound, CloudNotFound, ...).
	IdentityReasonDelegating = "Delegating"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterIdentityList is a list of ClusterIdentity objects.
type ClusterIdentityList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`

	Items []ClusterIdentity `json:"items"`
}
