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

// reportedError is a failure already shown in the Network's Ready condition and Events.
// It is retried with backoff like any error, but not logged again on every retry.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }

// invalidSpecError is a spec the controller itself cannot realise.
type invalidSpecError struct{ err error }

func (e *invalidSpecError) Error() string { return e.err.Error() }
func (e *invalidSpecError) Unwrap() error { return e.err }

// recordFailure records err in the Network's Ready condition (and, when the condition
// changes, in an Event and the log), together with networkID when a network exists, and
// says whether to retry: transient failures come back as a reportedError, terminal ones as
// nil so the key waits for the next spec change.
func (c *Controller) recordFailure(ctx context.Context, network *samplecrdv1.Network, networkID string, err error) error {
	reason, message, retry := explain(err)
	if reason == "" {
		return err
	}
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	if networkID != "" {
		status.NetworkID = networkID
	}
	old := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionReady)
	changed := old == nil || old.Reason != reason || old.Message != message || old.ObservedGeneration != network.Generation
	setReady(status, network.Generation, metav1.ConditionFalse, reason, message)
	if _, werr := c.writeStatus(ctx, network, status); werr != nil {
		return errors.Join(err, werr)
	}
	if changed {
		klog.FromContext(ctx).Info("Network is not ready", "reason", reason, "retry", retry, "err", err)
		c.recorder.Event(network, corev1.EventTypeWarning, reason, message)
	}
	if !retry {
		return nil
	}
	return &reportedError{err: err}
}

// explain maps an error to a Ready reason, a message for the user, and whether retrying
// can help. An empty reason means err is not about Neutron or the spec.
func explain(err error) (reason, message string, retry bool) {
	var invalid *invalidSpecError
	if errors.As(err, &invalid) {
		return samplecrdv1.ReasonInvalidSpec, invalid.Error(), false
	}
	var ne *neutron.Error
	if !errors.As(err, &ne) {
		return "", "", true
	}
	switch ne.Kind {
	case neutron.KindRejected:
		return samplecrdv1.ReasonInvalidSpec, fmt.Sprintf("Neutron rejected the request (%s): %s; fix the spec", ne.Op, ne.Message), false
	case neutron.KindOverQuota:
		return samplecrdv1.ReasonOverQuota, fmt.Sprintf("Neutron quota exhausted (%s): %s; retrying with backoff", ne.Op, ne.Message), true
	case neutron.KindInUse:
		return samplecrdv1.ReasonSubnetInUse, fmt.Sprintf("Neutron resource still in use (%s): %s; deletion retries with backoff until its ports are gone", ne.Op, ne.Message), true
	case neutron.KindConflict:
		return samplecrdv1.ReasonNeutronConflict, fmt.Sprintf("Neutron reported a conflict (%s): %s; retrying with backoff", ne.Op, ne.Message), true
	default:
		return samplecrdv1.ReasonNeutronUnavailable, fmt.Sprintf("Neutron is unavailable (%s): %s; retrying with backoff", ne.Op, ne.Message), true
	}
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

// isTerminal reports whether status says this generation's spec was rejected.
func isTerminal(status *samplecrdv1.NetworkStatus, generation int64) bool {
	cond := meta.FindStatusCondition(status.Conditions, samplecrdv1.ConditionReady)
	return cond != nil && cond.Reason == samplecrdv1.ReasonInvalidSpec && cond.ObservedGeneration == generation
}

// writeStatus writes status through the status subresource on a copy of network, only
// when it differs from what network already has, and returns the object as written.
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
