package v1

// ConditionGrantMissing is True while the Network keeps in effect a power that no
// ClusterIdentity grants any more: in the controller's warn mode (-grant-enforcement) a
// share, an interface on an existing router or an import made before; in every mode the
// Retain mark, which is never withdrawn because withdrawing it could delete data. Its
// message names each one and the grant it needs. Ready is not changed by it. It is removed
// once the powers are granted again, or withdrawn, or no longer in the spec.
const ConditionGrantMissing = "GrantMissing"

// ReasonKeptWithoutGrant is the reason of ConditionGrantMissing and of the Warning Event
// raised when it appears or changes.
const ReasonKeptWithoutGrant = "KeptWithoutGrant"
