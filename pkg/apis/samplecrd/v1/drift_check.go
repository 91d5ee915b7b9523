package v1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The bounds of spec.driftCheck.period. The lower one keeps a tenant from turning its
// Networks' checks into a flood of Neutron list calls; the upper one keeps the duration
// far from overflowing, and a Network is looked at at least daily.
const (
	MinDriftCheckPeriod = time.Minute
	MaxDriftCheckPeriod = 24 * time.Hour
)

// DriftCheck says how often, and to what end, the controller compares the Network's
// Neutron side with its spec: the changes made in Neutron outside the controller (by
// hand, during an incident, by another tool) are its drift.
type DriftCheck struct {
	// The pattern admits what Go's duration parser reads as whole numbers of units, so the
	// rule's duration() always parses; 3 terms of at most 5 digits cannot overflow it.

	// Period is how often the Network is compared with Neutron, between 1m and 24h, as a
	// duration such as 1m, 90s, 10m or 1h30m. Omit it for the controller's default
	// (-neutron-resync-period, 5m unless the operator changed it). Checks that fall due
	// together share one list of each project's Neutron resources; a shorter period costs
	// those lists more often and one status write per check (status.lastSyncTime).
	// +optional
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MaxLength=20
	// +kubebuilder:validation:Pattern=`^([0-9]{1,5}(h|m|s|ms|us|ns))+$`
	// +kubebuilder:validation:XValidation:rule=`duration(self) >= duration('1m') && duration(self) <= duration('24h')`,message=`driftCheck.period must be between 1m and 24h: a Network is compared with Neutron at most once a minute and at least once a day`
	Period *metav1.Duration `json:"period,omitempty"`
	// Policy says what a check does with drift. Repair (the default) changes Neutron back
	// to the spec and records a NeutronDrift Event. Report changes nothing in Neutron: the
	// Drifted condition is True with the attributes that differ and both values, a
	// DriftReported Event is recorded once per change, and the
	// network_controller_networks_drifted metric counts the Network. A change of the spec
	// is still carried out under Report (drift included), and setting Repair repairs at
	// once.
	// +optional
	// +kubebuilder:validation:Enum=Repair;Report
	// +kubebuilder:validation:MaxLength=16
	Policy DriftPolicy `json:"policy,omitempty"`
}

// DriftPolicy is what a drift check does with drift.
type DriftPolicy string

const (
	// DriftRepair changes Neutron back to the spec.
	DriftRepair DriftPolicy = "Repair"
	// DriftReport only reports drift, in ConditionDrifted.
	DriftReport DriftPolicy = "Report"
)

// ConditionDrifted is set on a Network whose spec.driftCheck.policy is Report: True, with
// reason ReasonDriftReported, while its last check found Neutron different from the spec
// (the message names each attribute, Neutron's value and the spec's), False with reason
// ReasonNoDrift while it matched. It is removed under Repair.
const ConditionDrifted = "Drifted"

const (
	// ReasonDriftReported is the reason of ConditionDrifted when True, and of the Warning
	// Event recorded each time the drift it reports changes.
	ReasonDriftReported = "DriftReported"
	// ReasonNoDrift is the reason of ConditionDrifted when False.
	ReasonNoDrift = "NoDrift"
)

// DriftPolicy returns the Network's drift policy, Repair when the spec has none.
func (n *Network) DriftPolicy() DriftPolicy {
	if n.Spec.DriftCheck == nil || n.Spec.DriftCheck.Policy == "" {
		return DriftRepair
	}
	return n.Spec.DriftCheck.Policy
}

// DriftCheckPeriod returns the Network's own check period, or def when its spec has none.
// A period outside the bounds, which admission refuses, is held to them.
func (n *Network) DriftCheckPeriod(def time.Duration) time.Duration {
	if n.Spec.DriftCheck == nil || n.Spec.DriftCheck.Period == nil {
		return def
	}
	return min(max(n.Spec.DriftCheck.Period.Duration, MinDriftCheckPeriod), MaxDriftCheckPeriod)
}
