package reconcile

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// noteWarning sets the warning condition conditionType beside Ready: True with reason
// and message, or removed for "". It writes only when the condition changes, and says
// whether it did, so that the caller tells of it (a log line, a Warning Event) once.
func (w *statusWriter) noteWarning(ctx context.Context, network *samplecrdv1.Network, conditionType, reason, message string) (*samplecrdv1.Network, bool, error) {
	old := meta.FindStatusCondition(network.Status.Conditions, conditionType)
	if (old == nil && message == "") || (old != nil && old.Message == message) {
		return network, false, nil
	}
	status := network.Status.DeepCopy()
	if message == "" {
		meta.RemoveStatusCondition(&status.Conditions, conditionType)
	} else {
		setTrue(status, conditionType, network.Generation, reason, message)
	}
	written, err := w.write(ctx, network, status)
	if err != nil {
		return nil, false, err
	}
	return written, true, nil
}
