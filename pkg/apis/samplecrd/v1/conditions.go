package v1

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConditionReady is the summary condition: True when the Neutron network and subnet exist
// and match the spec of the generation named in status.observedGeneration.
const ConditionReady = "Ready"

// Reasons of the Ready condition. Transient reasons are retried with backoff; terminal ones
// wait for the spec to change.
const (
	// ReasonProvisioned: Neutron matches the spec.
	ReasonProvisioned = "Provisioned"
	// ReasonProvisioning: work is in progress (first reconcile, or a change being applied).
	ReasonProvisioning = "Provisioning"
	// ReasonNeutronUnavailable (transient): Neutron could not be reached or answered 5xx.
	ReasonNeutronUnavailable = "NeutronUnavailable"
	// ReasonNeutronConflict (transient): Neutron answered 409 to a change.
	ReasonNeutronConflict = "NeutronConflict"
	// ReasonOverQuota (transient): the Neutron project quota is exhausted; retried slowly.
	ReasonOverQuota = "OverQuota"
	// ReasonInvalidSpec (terminal): Neutron or the controller rejected the spec.
	ReasonInvalidSpec = "InvalidSpec"
	// ReasonDeleting: the object is being deleted and its Neutron side removed.
	ReasonDeleting = "Deleting"
	// ReasonSubnetInUse (transient): deletion waits because ports still use the subnet.
	ReasonSubnetInUse = "SubnetInUse"
)

// FinalizerName keeps a Network in the API until the controller has deleted its Neutron
// network.
const FinalizerName = "samplecrd.k8s.io/neutron-cleanup"

// ReadyCondition returns the Network's Ready condition, or nil.
func (n *Network) ReadyCondition() *metav1.Condition {
	return meta.FindStatusCondition(n.Status.Conditions, ConditionReady)
}

// IsReady reports whether the Network is Ready=True for its current generation: its
// Neutron side matches the spec as it is now, not an earlier one.
func (n *Network) IsReady() bool {
	c := n.ReadyCondition()
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == n.Generation &&
		n.Status.ObservedGeneration == n.Generation
}
