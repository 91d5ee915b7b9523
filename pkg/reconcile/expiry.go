package reconcile

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Credentials fail on a date Keystone knows: the Network says so beforehand
// (credentials.Tenants.ExpiryWarning), beside its Ready condition, which it leaves alone.

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
