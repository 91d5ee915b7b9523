package neutron

import "time"

// CredentialExpiry is when the credentials a Driver authenticates with stop working, as
// Keystone says: an application credential's expires_at, or its user's
// password_expires_at.
type CredentialExpiry struct {
	// What names the credential, e.g. "password of Keystone user team-a-user" or
	// "application credential network-controller (ID 9ff5…)"; never a secret.
	What string
	// Kind is "password" or "application_credential".
	Kind string
	At   time.Time
}

// Kinds of CredentialExpiry.
const (
	ExpiryPassword              = "password"
	ExpiryApplicationCredential = "application_credential"
)

// Expiring is a Driver whose credentials may expire. ok is false when they do not, or
// when Keystone did not say.
type Expiring interface {
	CredentialExpiry() (expiry CredentialExpiry, ok bool)
}
