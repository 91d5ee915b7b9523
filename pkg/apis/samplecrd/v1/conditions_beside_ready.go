package v1

// ConditionReconciling and ConditionStalled follow the kstatus convention (the rules of
// sigs.k8s.io/cli-utils, which Flux, kpt and kapp use) and are set beside Ready, with the
// same observedGeneration. They are True only while they hold and are removed otherwise,
// so a Ready Network carries Ready alone.
const (
	// ConditionReconciling is True while the controller works towards the spec: a
	// transient failure it retries, under the Ready reason, or a change a pause holds. A
	// pass writes status once, at its end, so work under way shows as an observedGeneration
	// below the generation instead.
	ConditionReconciling = "Reconciling"
	// ConditionStalled is True, under the Ready reason and with its message, when no retry
	// can help: only a change of the spec, of the Secret it names or, for an import, of
	// the Neutron network it names.
	ConditionStalled = "Stalled"
)

// Reasons of the Reconciling condition while a change was under way, written up to
// v0.1.0; a pass now writes status once, at its end, and no longer sets them. They stay
// for clients that test for them.
const (
	// ReasonCreating: the Neutron network or subnet is being created.
	ReasonCreating = "Creating"
	// ReasonUpdating: Neutron is being changed to match a new spec.
	ReasonUpdating = "Updating"
)

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

// ConditionCredentialsExpiring is True while the credentials the Network's Neutron side
// is reached with expire within the controller's warning period (-credentials-expiry-warning),
// or have expired: Keystone's application credential expires_at, or its user's
// password_expires_at. Ready is not changed by it. It is removed once the credentials
// in use no longer expire that soon.
const ConditionCredentialsExpiring = "CredentialsExpiring"

// ReasonCredentialsExpiring is the reason of ConditionCredentialsExpiring and of the
// Warning Event raised when it appears.
const ReasonCredentialsExpiring = "CredentialsExpiring"

// ConditionPasswordCredentials is True while the Network authenticates with a password of
// its namespace's Secret that the controller warns about (-tenant-passwords=warn): Keystone
// locks a user out after refused logins, and the operator may come to refuse passwords
// (PasswordCredentialsRefused). Ready is not changed by it. It goes once the Secret holds
// an application credential.
const ConditionPasswordCredentials = "PasswordCredentials"

// ReasonPasswordCredentialsInUse is the reason of ConditionPasswordCredentials and of the
// Warning Event raised when it appears.
const ReasonPasswordCredentialsInUse = "PasswordCredentialsInUse"
