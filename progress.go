package main

import (
	"context"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The kstatus conditions beside Ready: Reconciling while work is under way or retried,
// Stalled when only a change of the spec can help. GitOps tools read these, not Ready's
// reasons, to tell waiting from failing.

// recordProgress marks the Network Reconciling before the changes of a generation its
// status says nothing about yet (a create, a spec change) are applied, so that a slow
// Neutron shows as work under way. Everything else costs no write: a retry, or a create
// whose project write marked it, is Reconciling already; a Ready Network repaired after a
// change made in Neutron by hand stays Ready; a rejected one looked at again after a
// restart stays Stalled unless Neutron now takes it.
func (c *Controller) recordProgress(ctx context.Context, network *samplecrdv1.Network, changes neutron.Changes) (*samplecrdv1.Network, error) {
	if changes.None() || isReconciling(network) {
		return network, nil
	}
	if ready := network.ReadyCondition(); ready != nil && ready.ObservedGeneration == network.Generation {
		return network, nil
	}
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	reason, message := progressOf(changes)
	setReconciling(status, network.Generation, reason, message)
	written, err := c.writeStatus(ctx, network, status)
	if apierrors.IsConflict(err) {
		// The cache is behind a newer write, most often this mark made by a run that was
		// deferred a moment ago. The mark only tells; the work goes on without it, as it
		// would have before there was one.
		klog.FromContext(ctx).V(4).Info("Not marking the Network Reconciling: the cache is behind the stored object", "err", err)
		return network, nil
	}
	return written, err
}

// progressOf says what changes are about, for the Reconciling condition.
func progressOf(changes neutron.Changes) (reason, message string) {
	switch {
	case changes.CreateNetwork:
		return samplecrdv1.ReasonCreating, "creating the Neutron network and subnet"
	case changes.CreateSubnet:
		return samplecrdv1.ReasonCreating, "creating the Neutron subnet"
	}
	if diffs := slices.Concat(changes.NetworkDiffs, changes.SubnetDiffs); len(diffs) > 0 {
		return samplecrdv1.ReasonUpdating, "changing Neutron to match the spec: " + neutron.Describe(diffs)
	}
	return samplecrdv1.ReasonUpdating, "deleting duplicate Neutron resources"
}

// isReconciling reports whether the Network is marked Reconciling for its generation.
func isReconciling(network *samplecrdv1.Network) bool {
	c := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionReconciling)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == network.Generation &&
		network.Status.ObservedGeneration == network.Generation
}

// setReconciling marks work under way (or retried) under reason; Stalled no longer holds.
func setReconciling(status *samplecrdv1.NetworkStatus, generation int64, reason, message string) {
	setTrue(status, samplecrdv1.ConditionReconciling, generation, reason, message)
	meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionStalled)
}

// setStalled marks a failure no retry can cure; Reconciling no longer holds.
func setStalled(status *samplecrdv1.NetworkStatus, generation int64, reason, message string) {
	setTrue(status, samplecrdv1.ConditionStalled, generation, reason, message)
	meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionReconciling)
}

// setSettled removes both: the Network is Ready for its generation.
func setSettled(status *samplecrdv1.NetworkStatus) {
	meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionReconciling)
	meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionStalled)
}

func setTrue(status *samplecrdv1.NetworkStatus, conditionType string, generation int64, reason, message string) {
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type:               conditionType,
		Status:             metav1.ConditionTrue,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: generation,
	})
}
