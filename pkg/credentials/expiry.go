package credentials

import (
	"fmt"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Credentials fail on a date Keystone knows: the Network says so beforehand.

// ExpiryWarning is what the Network should say at now of credentials that expire at
// expiry: "" when they do not expire within the warning window (or it is 0).
func (t *Tenants) ExpiryWarning(network *samplecrdv1.Network, expiry *neutron.CredentialExpiry, now time.Time) string {
	return ExpiryWarning(network, expiry, now, t.expiryWindow)
}

// ExpiryDue reports whether the Network's credentials, as last read, expire within the
// warning window at now; it costs no call.
func (t *Tenants) ExpiryDue(network *samplecrdv1.Network, now time.Time) bool {
	return t.ExpiryWarning(network, t.registry.ExpiryOf(cache.MetaObjectToName(network)), now) != ""
}

// ExpiryWarning returns what a Network whose credentials expire at expiry should say at
// now, warning window ahead: "" when they do not expire within it (or window is 0).
func ExpiryWarning(network *samplecrdv1.Network, expiry *neutron.CredentialExpiry, now time.Time, window time.Duration) string {
	if expiry == nil || window <= 0 || expiry.At.Sub(now) > window {
		return ""
	}
	ref := network.Spec.CloudCredentialsRef
	at := expiry.At.UTC().Format(time.RFC3339)
	if !ref.OwnSecret() {
		// The controller's own credentials and a ClusterIdentity's are the operator's: the
		// tenant learns whose expire and when, not their Keystone user or application
		// credential (the log names those, the metrics name the Secret).
		when := fmt.Sprintf("%s expire at %s, within the %s this controller warns ahead", credentialsOf(network), at, days(window))
		if !expiry.At.After(now) {
			when = fmt.Sprintf("%s expired at %s; Keystone refuses them once the token in use expires", credentialsOf(network), at)
		}
		if ref.Delegated() {
			return when + "; the operator rotates them (the ClusterIdentity's Secret); the warning clears when the controller reads them"
		}
		return when + "; the operator rotates them (the controller's clouds.yaml, read at startup)"
	}
	when := "expires at " + at + ", within the " + days(window) + " this controller warns ahead"
	if !expiry.At.After(now) {
		when = "expired at " + at + "; Keystone refuses it once the token in use expires"
	}
	// What names the tenant's own user and application credential, of its own Secret.
	return fmt.Sprintf("the %s %s: %s are used for this Network; put new credentials into the Secret before then; the warning clears when the controller reads them",
		expiry.What, when, credentialsOf(network))
}

func days(d time.Duration) string {
	if n := int(d.Hours() / 24); n*24 == int(d.Hours()) && n > 0 {
		if n == 1 {
			return "1 day"
		}
		return fmt.Sprintf("%d days", n)
	}
	return d.String()
}
