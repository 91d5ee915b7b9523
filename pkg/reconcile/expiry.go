package reconcile

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Credentials fail on a date Keystone knows: the Network says so beforehand, beside its
// Ready condition, which it leaves alone.

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
		// credential (noteExpiry logs those, the metrics name the Secret).
		when := fmt.Sprintf("%s expire at %s, within the %s this controller warns ahead", credentialsOf(network), at, days(window))
		if !expiry.At.After(now) {
			when = fmt.Sprintf("%s expired at %s; Keystone refuses them once the token in use expires", credentialsOf(network), at)
		}
		if ref.Delegated() {
			return truncate(when+"; the operator rotates them (the ClusterIdentity's Secret); the warning clears when the controller reads them", maxMessageLength)
		}
		return truncate(when+"; the operator rotates them (the controller's clouds.yaml, read at startup)", maxMessageLength)
	}
	when := "expires at " + at + ", within the " + days(window) + " this controller warns ahead"
	if !expiry.At.After(now) {
		when = "expired at " + at + "; Keystone refuses it once the token in use expires"
	}
	// What names the tenant's own user and application credential, of its own Secret.
	return truncate(fmt.Sprintf("the %s %s: %s are used for this Network; put new credentials into the Secret before then; the warning clears when the controller reads them",
		expiry.What, when, credentialsOf(network)), maxMessageLength)
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

// HasExpiryWarning reports whether the Network's status says its credentials expire soon.
func HasExpiryWarning(network *samplecrdv1.Network) bool {
	return meta.IsStatusConditionTrue(network.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring)
}

// noteExpiry sets the CredentialsExpiring condition to warning in the pass's write, or
// removes it for "", with a Warning Event and a log line naming expiry's credential when
// it appears.
func (w *statusWriter) noteExpiry(ctx context.Context, network *samplecrdv1.Network, warning string, expiry *neutron.CredentialExpiry) {
	w.warn(network, samplecrdv1.ConditionCredentialsExpiring, samplecrdv1.ReasonCredentialsExpiring, warning, func() {
		if warning == "" {
			klog.FromContext(ctx).Info("Network's credentials no longer expire soon")
			return
		}
		// The warning may leave out whose credentials they are (the operator's): the
		// operator finds them here. What is a name, never a secret.
		klog.FromContext(ctx).Info("Network's credentials expire soon", "warning", warning,
			"credential", expiry.What, "kind", expiry.Kind, "expiresAt", expiry.At.UTC().Format(time.RFC3339))
		w.recorder.Event(network, corev1.EventTypeWarning, samplecrdv1.ReasonCredentialsExpiring, warning)
	})
}
