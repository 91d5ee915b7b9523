package reconcile

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// notePassword sets the PasswordCredentials condition to warning (credentials.Tenant's
// PasswordWarning) in the pass's write, or removes it for "", with a Warning Event when it
// appears. Ready is left alone: the password works, for now.
func (w *statusWriter) notePassword(ctx context.Context, network *samplecrdv1.Network, warning string) {
	w.warn(network, samplecrdv1.ConditionPasswordCredentials, samplecrdv1.ReasonPasswordCredentialsInUse, warning, func() {
		if warning == "" {
			klog.FromContext(ctx).Info("Network no longer authenticates with a password")
			return
		}
		klog.FromContext(ctx).Info("Network authenticates with a password of its namespace's Secret", "warning", warning)
		w.recorder.Event(network, corev1.EventTypeWarning, samplecrdv1.ReasonPasswordCredentialsInUse, warning)
	})
}
