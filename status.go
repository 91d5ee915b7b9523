package main

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// recordReady records that net and subnet realise the Network's spec: Ready=True, and in
// an Event and the log when the Network was not Ready before.
func (c *Controller) recordReady(ctx context.Context, network *samplecrdv1.Network, net neutron.Network, subnet neutron.Subnet) error {
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	setRealized(status, net, subnet)
	setReady(status, network.Generation, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned,
		fmt.Sprintf("Neutron network %s with subnet %s (%s)", net.ID, subnet.ID, subnet.Summary()))
	setSettled(status)
	stopwatch := c.readyStopwatch(network)
	if _, err := c.writeStatus(ctx, network, status); err != nil {
		return err
	}
	if !network.IsReady() {
		klog.FromContext(ctx).Info("Network is ready", "networkID", net.ID, "subnetID", subnet.ID)
		stopwatch()
		c.recorder.Eventf(network, corev1.EventTypeNormal, samplecrdv1.ReasonProvisioned,
			"Neutron network %s and subnet %s match the spec", net.ID, subnet.ID)
	}
	return nil
}

// recordFailure records err in the Network's Ready condition (and, when the condition
// changes, in an Event and the log), together with networkID when a network exists, and
// returns what the workqueue should do: a transient failure comes back as a reportedError
// (retried with backoff), a terminal one as a terminalError (not retried: the key waits
// for the next spec change).
func (c *Controller) recordFailure(ctx context.Context, network *samplecrdv1.Network, networkID string, err error) error {
	reason, message := explain(err)
	if reason == "" {
		return err
	}
	old := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionReady)
	changed := old == nil || old.Reason != reason || old.Message != message || old.ObservedGeneration != network.Generation
	if _, werr := c.writeStatus(ctx, network, failedStatus(network, networkID, reason, message)); werr != nil {
		return errors.Join(err, werr)
	}
	terminal := samplecrdv1.IsTerminalReason(reason)
	if changed {
		klog.FromContext(ctx).Info("Network is not ready", "reason", reason, "retry", !terminal, "err", err)
		c.recorder.Event(network, corev1.EventTypeWarning, reason, message)
	}
	if terminal {
		return &terminalError{reason: reason, err: err}
	}
	return &reportedError{err: err}
}

// failedStatus returns the Network's status with Ready=False for reason, naming networkID
// when a network exists, and Stalled (terminal reason) or Reconciling (retried) with it.
func failedStatus(network *samplecrdv1.Network, networkID, reason, message string) *samplecrdv1.NetworkStatus {
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	if networkID != "" {
		status.NetworkID = networkID
	}
	setReady(status, network.Generation, metav1.ConditionFalse, reason, message)
	if samplecrdv1.IsTerminalReason(reason) {
		setStalled(status, network.Generation, reason, message)
	} else {
		setReconciling(status, network.Generation, reason, message)
	}
	return status
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

// writeStatus writes status through the status subresource on a copy of network, only
// when it differs from what network already has, and returns the Network as it now is.
func (c *Controller) writeStatus(ctx context.Context, network *samplecrdv1.Network, status *samplecrdv1.NetworkStatus) (*samplecrdv1.Network, error) {
	if equality.Semantic.DeepEqual(network.Status, *status) {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Status = *status
	written, err := c.client.SamplecrdV1().Networks(network.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, fmt.Errorf("writing status of Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	return written, nil
}
