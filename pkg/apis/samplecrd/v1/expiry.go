package v1

// ConditionCredentialsExpiring is True while the credentials the Network's Neutron side
// is reached with expire within the controller's warning period (-credentials-expiry-warning),
// or have expired: Keystone's application credential expires_at, or its user's
// password_expires_at. Ready is not changed by it. It is removed once the credentials
// in use no longer expire that soon.
const ConditionCredentialsExpiring = "CredentialsExpiring"

// ReasonCredentialsExpiring is the reason of ConditionCredentialsExpiring and of the
// Warning Event raised when it appears.
const ReasonCredentialsExpiring = "CredentialsExpiring"
