package reconcile

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A paused Network is looked at only to say so: no credentials are read, no token asked
// for, no Neutron call made and nothing but its status written, until the annotation goes.

// pauseOf says why the Network is paused, "" when it is not.
func pauseOf(network *samplecrdv1.Network) string {
	value, ok := network.ReconcileAnnotation()
	switch {
	case !ok:
		return ""
	case value == samplecrdv1.ReconcilePaused:
		return fmt.Sprintf("reconciling is paused by the annotation %s=%s: Neutron is neither changed nor repaired; remove the annotation to resume",
			samplecrdv1.AnnotationReconcile, samplecrdv1.ReconcilePaused)
	}
	return fmt.Sprintf("reconciling is paused: the annotation %s has the unknown value %q, taken as %s; remove the annotation to resume",
		samplecrdv1.AnnotationReconcile, truncate(value, 64), samplecrdv1.ReconcilePaused)
}

// IsPaused reports whether the annotation pauses the Network.
func IsPaused(network *samplecrdv1.Network) bool { return pauseOf(network) != "" }

// paused writes the Paused condition, and Reconciling when a change of the spec or a
// deletion waits: kstatus then reads the Network as in progress, not as current.
func (w *statusWriter) paused(ctx context.Context, network *samplecrdv1.Network, why string) error {
	status := network.Status.DeepCopy()
	wasPaused := meta.IsStatusConditionTrue(status.Conditions, samplecrdv1.ConditionPaused)
	setTrue(status, samplecrdv1.ConditionPaused, network.Generation, samplecrdv1.ReasonPaused, why)
	if waiting := waitingChange(network); waiting != "" {
		status.ObservedGeneration = network.Generation
		setReconciling(status, network.Generation, samplecrdv1.ReasonPaused, waiting+" waits: "+why)
	}
	if _, err := w.write(ctx, network, status); err != nil {
		return err
	}
	if !wasPaused {
		klog.FromContext(ctx).Info("Network paused", "annotation", samplecrdv1.AnnotationReconcile)
		w.recorder.Event(network, corev1.EventTypeNormal, samplecrdv1.ReasonPaused, why)
	}
	return nil
}

// waitingChange names what a pause holds back: the deletion, a generation not yet
// realized (or a failure retried), or "" when the Network was settled as it is.
func waitingChange(network *samplecrdv1.Network) string {
	if network.DeletionTimestamp != nil {
		return "the deletion of the Neutron network"
	}
	if ready := network.ReadyCondition(); ready != nil && ready.ObservedGeneration == network.Generation {
		if ready.Status == metav1.ConditionTrue || meta.IsStatusConditionTrue(network.Status.Conditions, samplecrdv1.ConditionStalled) {
			return ""
		}
	}
	return fmt.Sprintf("generation %d", network.Generation)
}

// resumed removes, in the pass's write, what a pause wrote, before the Network is
// reconciled again; a Network that was not paused costs nothing.
func (w *statusWriter) resumed(ctx context.Context, network *samplecrdv1.Network) {
	if meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionPaused) == nil {
		return
	}
	w.edit(statusEdit{
		apply: func(status *samplecrdv1.NetworkStatus) {
			meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionPaused)
			if c := meta.FindStatusCondition(status.Conditions, samplecrdv1.ConditionReconciling); c != nil && c.Reason == samplecrdv1.ReasonPaused {
				meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionReconciling)
			}
		},
		tell: func() {
			klog.FromContext(ctx).Info("Network resumed")
			w.recorder.Event(network, corev1.EventTypeNormal, samplecrdv1.ReasonResumed, "reconciling resumed: the annotation "+samplecrdv1.AnnotationReconcile+" is gone")
		},
	})
}
