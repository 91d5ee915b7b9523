package v1

// AnnotationReconcile pauses one Network, during an incident or a migration: with the
// value ReconcilePaused the controller makes no Neutron call for it, neither to apply its
// spec nor to repair drift nor to delete it (a deletion waits), and says so in the
// ConditionPaused condition. Removing the annotation resumes. Any other value pauses too,
// so a misspelt value cannot let a change through; the condition names it.
const AnnotationReconcile = "network-controller.samplecrd.k8s.io/reconcile"

// ReconcilePaused is the value of AnnotationReconcile that pauses a Network.
const ReconcilePaused = "paused"

// ConditionPaused is True while AnnotationReconcile pauses the Network; it is removed
// when reconciling resumes. Ready keeps what it said before the pause.
const ConditionPaused = "Paused"

// ReasonPaused is the reason of ConditionPaused, and of Reconciling while a change of
// the spec, or a deletion, waits for the pause to end.
const ReasonPaused = "Paused"

// ReasonResumed is the reason of the Event that says reconciling resumed.
const ReasonResumed = "Resumed"

// ReconcileAnnotation returns the value of AnnotationReconcile and whether it is set.
func (n *Network) ReconcileAnnotation() (string, bool) {
	value, ok := n.Annotations[AnnotationReconcile]
	return value, ok
}
