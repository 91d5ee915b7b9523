package reconcile

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// notePassword sets the PasswordCredentials condition to warning (registry.Tenant's
// PasswordWarning), or removes it for "", with a Warning Event when it appears; a write
// only when it changes. Ready is left alone: the password works, for now.
func (w *statusWriter) notePassword(ctx context.Context, network *samplecrdv1.Network, warning string) (*samplecrdv1.Network, error) {
	written, changed, err := w.noteWarning(ctx, network, samplecrdv1.ConditionPasswordCredentials, samplecrdv1.ReasonPasswordCredentialsInUse, warning)
	switch {
	case err != nil || !changed:
		return written, err
	case warning == "":
		klog.FromContext(ctx).Info("Network no longer authenticates with a password")
	default:
		klog.FromContext(ctx).Info("Network authenticates with a password of its namespace's Secret", "warning", warning)
		w.recorder.Event(network, corev1.EventTypeWarning, samplecrdv1.ReasonPasswordCredentialsInUse, warning)
	}
	return written, nil
}
