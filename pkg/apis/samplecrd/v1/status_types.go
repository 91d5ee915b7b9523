package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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
	// InvalidSpec, SubnetInUse, NeutronResourceNotOwned, RouterNotFound; for an import Imported,
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
