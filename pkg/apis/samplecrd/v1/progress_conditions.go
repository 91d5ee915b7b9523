package v1

// ConditionReconciling and ConditionStalled follow the kstatus convention (the rules of
// sigs.k8s.io/cli-utils, which Flux, kpt and kapp use) and are set beside Ready, with the
// same observedGeneration. They are True only while they hold and are removed otherwise,
// so a Ready Network carries Ready alone.
const (
	// ConditionReconciling is True while the controller works towards the spec: a create
	// or an update under way (ReasonCreating, ReasonUpdating), or a transient failure it
	// retries, under the Ready reason.
	ConditionReconciling = "Reconciling"
	// ConditionStalled is True, under the Ready reason and with its message, when no retry
	// can help: only a change of the spec, of the Secret it names or, for an import, of
	// the Neutron network it names.
	ConditionStalled = "Stalled"
)

// Reasons of the Reconciling condition while a change is under way; a retry carries the
// Ready reason instead.
const (
	// ReasonCreating: the Neutron network or subnet is being created.
	ReasonCreating = "Creating"
	// ReasonUpdating: Neutron is being changed to match a new spec.
	ReasonUpdating = "Updating"
)
