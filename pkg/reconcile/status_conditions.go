package reconcile

import (
	"context"
	"slices"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The next status of a Network, one builder per kind of moment; statusWriter writes them.
// Beside Ready stand the kstatus conditions: Reconciling while work is under way or
// retried, Stalled when only a change of the spec can help. GitOps tools read these, not
// Ready's reasons, to tell waiting from failing.

// pinnedStatus records the project and region about to be used; a Network with nothing
// in Neutron yet is marked Reconciling for its create at the same time.
func pinnedStatus(network *samplecrdv1.Network, place neutron.Place) *samplecrdv1.NetworkStatus {
	status := network.Status.DeepCopy()
	status.ProjectID, status.Region = place.ProjectID, place.Region
	if !network.IsImported() && network.Status.NetworkID == "" && !isReconciling(network) {
		reason, message := progressOf(neutron.Changes{CreateNetwork: true})
		status.ObservedGeneration = network.Generation
		setReconciling(status, network.Generation, reason, message)
	}
	return status
}

// reconcilingStatus marks work under way for the Network's generation.
func reconcilingStatus(network *samplecrdv1.Network, reason, message string) *samplecrdv1.NetworkStatus {
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	setReconciling(status, network.Generation, reason, message)
	return status
}

// realizedStatus records the network and subnets that realise the spec, Ready=True.
func realizedStatus(network *samplecrdv1.Network, out outcome, reason, message string) *samplecrdv1.NetworkStatus {
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	setRealized(status, out)
	setReady(status, network.Generation, metav1.ConditionTrue, reason, message)
	setSettled(status)
	return status
}

// failedStatus returns the Network's status with Ready=False for f, naming networkID when
// a network exists, and Stalled (terminal) or Reconciling (retried) with it.
func failedStatus(network *samplecrdv1.Network, networkID string, f *Failure) *samplecrdv1.NetworkStatus {
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	if networkID != "" {
		status.NetworkID = networkID
	}
	setReady(status, network.Generation, metav1.ConditionFalse, f.Reason, f.Message)
	if f.Terminal {
		setStalled(status, network.Generation, f.Reason, f.Message)
	} else {
		setReconciling(status, network.Generation, f.Reason, f.Message)
	}
	return status
}

// appliedStatus is failedStatus after a pass cut off by f: it also records the subnets the
// pass knows to exist, when it knows them all (an item removed from the spec whose subnet
// ports still use stays listed).
func appliedStatus(network *samplecrdv1.Network, out outcome, f *Failure) *samplecrdv1.NetworkStatus {
	status := failedStatus(network, out.net.ID, f)
	if out.complete && out.net.ID != "" {
		setRealized(status, out)
	}
	return status
}

// progressOf says what changes are about, for the Reconciling condition.
func progressOf(changes neutron.Changes) (reason, message string) {
	switch {
	case changes.CreateNetwork:
		return samplecrdv1.ReasonCreating, "creating the Neutron network and subnet"
	case changes.CreatesSubnet():
		return samplecrdv1.ReasonCreating, "creating the Neutron subnet"
	}
	if diffs := slices.Concat(changes.NetworkDiffs, changes.SubnetDiffs()); len(diffs) > 0 {
		return samplecrdv1.ReasonUpdating, "changing Neutron to match the spec: " + neutron.Describe(diffs)
	}
	if len(changes.RemoveSubnets) > 0 {
		return samplecrdv1.ReasonUpdating, "deleting the Neutron subnets of items no longer in the spec"
	}
	return samplecrdv1.ReasonUpdating, "deleting duplicate Neutron resources"
}

// isReconciling reports whether the Network is marked Reconciling for its generation.
func isReconciling(network *samplecrdv1.Network) bool {
	c := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionReconciling)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == network.Generation &&
		network.Status.ObservedGeneration == network.Generation
}

// setReady sets the Ready condition; its transition time moves only when status changes.
func setReady(status *samplecrdv1.NetworkStatus, generation int64, s metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type:               samplecrdv1.ConditionReady,
		Status:             s,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: generation,
	})
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
