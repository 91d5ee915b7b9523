package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
)

// statusWriter is the one writer of Networks' status. Each of its methods builds the next
// status of one kind of moment (the builders follow it below), writes it when
// it differs, and records the Event and log line that go with it.
//
// A pass writes status once, at its end (besides the finalizer): what it decides on before
// its outcome (the project, the warnings beside Ready, a resume) is an edit kept in the
// pass's writer (forPass) and goes into that write.
type statusWriter struct {
	client       clientset.Interface
	fieldManager string
	recorder     record.EventRecorder
	clock        *readyClock
	writes       *ownWrites
	// pending are the edits of this pass's writer not written yet; unwritten says that the
	// pass changed the status of the Network it goes on with without writing it.
	pending   []statusEdit
	unwritten bool
}

// statusEdit is a change of status a pass decided on before its outcome. tell, when set,
// runs once the write that carries the change is made: the log line and Event that say so.
type statusEdit struct {
	apply func(*samplecrdv1.NetworkStatus)
	tell  func()
}

// forPass returns the writer of one pass, with no edits pending.
func (w *statusWriter) forPass() *statusWriter {
	pass := *w
	pass.pending, pass.unwritten = nil, false
	return &pass
}

// edit keeps e for the pass's next write.
func (w *statusWriter) edit(e statusEdit) { w.pending = append(w.pending, e) }

// pinPlace records the Network's project and region in the pass's write. Before anything
// is created there, the finalizer's write pins the project too (finalizers.ensure), so
// that a later change of credentials can be checked against it even if this process dies
// right after the create.
func (w *statusWriter) pinPlace(network *samplecrdv1.Network, place neutron.Place) {
	if place.ProjectID == "" || (network.Status.ProjectID == place.ProjectID && network.Status.Region == place.Region) {
		return
	}
	w.edit(statusEdit{apply: func(status *samplecrdv1.NetworkStatus) {
		status.ProjectID, status.Region = place.ProjectID, place.Region
	}})
}

// ready records that the outcome's network and subnets realise the Network's spec:
// Ready=True, and in an Event and the log when the Network was not Ready before.
func (w *statusWriter) ready(ctx context.Context, network *samplecrdv1.Network, out outcome) error {
	net := out.net
	status := realizedStatus(network, out, samplecrdv1.ReasonProvisioned, fmt.Sprintf("Neutron network %s with %s", net.ID, subnetsText(out.subnets)))
	ids := subnetIDs(out.subnets)
	return w.becomeReady(ctx, network, status, func() {
		klog.FromContext(ctx).Info("Network is ready", "networkID", net.ID, "subnetIDs", ids)
		w.recorder.Eventf(network, corev1.EventTypeNormal, samplecrdv1.ReasonProvisioned,
			"Neutron network %s and %s %s match the spec", net.ID, plural(len(ids), "subnet", "subnets"), strings.Join(ids, ", "))
	})
}

// imported records what an import resolved to: Ready=True with the network and subnet,
// or the problem, which waits for Neutron to change.
func (w *statusWriter) imported(ctx context.Context, network *samplecrdv1.Network, result neutron.ImportResult) error {
	if result.Problem != 0 {
		return w.failed(ctx, network, result.Network.ID, importFailed(result))
	}
	return w.becomeReady(ctx, network, importedStatus(network, result), func() {
		klog.FromContext(ctx).Info("Network imports a Neutron network", "networkID", result.Network.ID, "subnetID", result.Subnet.ID)
		w.recorder.Eventf(network, corev1.EventTypeNormal, samplecrdv1.ReasonImported,
			"Imported Neutron network %s with subnet %s (%s), read-only", result.Network.ID, result.Subnet.ID, result.Subnet.Summary())
	})
}

// becomeReady writes a Ready status and, when the Network was not Ready before, tells
// and records how long it waited.
func (w *statusWriter) becomeReady(ctx context.Context, network *samplecrdv1.Network, status *samplecrdv1.NetworkStatus, tell func()) error {
	stopwatch := w.clock.stopwatch(network)
	if _, err := w.write(ctx, network, status); err != nil {
		return err
	}
	if !network.IsReady() {
		stopwatch()
		tell()
	}
	return nil
}

// failed records err in the Network's Ready condition (and, when the condition changes,
// in an Event and the log), together with networkID when a network exists, and returns
// what the workqueue should do: the Failure, recorded, or err itself when it is about
// neither Neutron nor the spec (retried, and logged, as any error).
func (w *statusWriter) failed(ctx context.Context, network *samplecrdv1.Network, networkID string, err error) error {
	return w.failedWith(ctx, network, err, func(f *Failure) *samplecrdv1.NetworkStatus { return failedStatus(network, networkID, f) })
}

// failedApplying is failed for a pass cut off by err, with what the pass left in Neutron.
func (w *statusWriter) failedApplying(ctx context.Context, network *samplecrdv1.Network, out outcome, err error) error {
	return w.failedWith(ctx, network, err, func(f *Failure) *samplecrdv1.NetworkStatus { return appliedStatus(network, out, f) })
}

func (w *statusWriter) failedWith(ctx context.Context, network *samplecrdv1.Network, err error, next func(*Failure) *samplecrdv1.NetworkStatus) error {
	f := classify(err)
	if f == nil {
		return err
	}
	old := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionReady)
	if old != nil && old.Reason == f.Reason && old.ObservedGeneration == network.Generation && sameFailure(old.Message, f.Message) {
		// A retry that failed alike: the first answer's request ID stays, no write.
		f.Message = old.Message
	}
	changed := old == nil || old.Reason != f.Reason || old.Message != f.Message || old.ObservedGeneration != network.Generation
	if _, werr := w.write(ctx, network, next(f)); werr != nil {
		return errors.Join(err, werr)
	}
	if changed {
		klog.FromContext(ctx).Info("Network is not ready", "reason", f.Reason, "retry", !f.Terminal, "err", err)
		w.recorder.Event(network, corev1.EventTypeWarning, f.Reason, f.Message)
	}
	return recorded{f}
}

// subnetsText describes subnets in a few words each, e.g. "subnet 9ab2… (10.0.0.0/24,
// gateway 10.0.0.1)" or "subnets v4 9ab2… (…), v6 77c1… (…)".
func subnetsText(subnets []itemSubnet) string {
	if len(subnets) == 1 && subnets[0].item == "" {
		return fmt.Sprintf("subnet %s (%s)", subnets[0].subnet.ID, subnets[0].subnet.Summary())
	}
	parts := make([]string, len(subnets))
	for i, s := range subnets {
		parts[i] = fmt.Sprintf("%s %s (%s)", s.item, s.subnet.ID, s.subnet.Summary())
	}
	return plural(len(parts), "subnet", "subnets") + " " + strings.Join(parts, ", ")
}

func subnetIDs(subnets []itemSubnet) []string {
	ids := make([]string, len(subnets))
	for i, s := range subnets {
		ids[i] = s.subnet.ID
	}
	return ids
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// notOwned records, in the Ready condition and a Warning Event, that deleting the
// Network left a network status named untouched, and returns the Network as written.
func (w *statusWriter) notOwned(ctx context.Context, network *samplecrdv1.Network, f *Failure) (*samplecrdv1.Network, error) {
	written, err := w.write(ctx, network, failedStatus(network, "", f))
	if err != nil {
		return nil, err
	}
	w.recorder.Event(network, corev1.EventTypeWarning, f.Reason, f.Message)
	return written, nil
}

// flush writes what the pass's edits change of the Network's status as it is: for a pass
// whose outcome leaves the rest of the status as it was.
func (w *statusWriter) flush(ctx context.Context, network *samplecrdv1.Network) error {
	_, err := w.write(ctx, network, network.Status.DeepCopy())
	return err
}

// write writes status through the status subresource on a copy of network, only when it
// differs from what network already has, and returns the Network as it now is. It is the
// only status write of the controller.
//
// The pass's pending edits go into status first; once written, their tells run, and a
// later write of the same pass starts from the written status, which has them.
func (w *statusWriter) write(ctx context.Context, network *samplecrdv1.Network, status *samplecrdv1.NetworkStatus) (*samplecrdv1.Network, error) {
	pending := w.pending
	for _, e := range pending {
		e.apply(status)
	}
	if !w.unwritten && equality.Semantic.DeepEqual(network.Status, *status) {
		return network, nil
	}
	updated := network.DeepCopy()
	updated.Status = *status
	written, err := w.writes.timed(metrics.WriteStatus, func() (*samplecrdv1.Network, error) {
		return w.client.SamplecrdV1().Networks(network.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: w.fieldManager})
	})
	if err != nil {
		return nil, fmt.Errorf("writing status of Network %s/%s: %w", network.Namespace, network.Name, err)
	}
	w.pending, w.unwritten = nil, false
	for _, e := range pending {
		if e.tell != nil {
			e.tell()
		}
	}
	return written, nil
}

// The next status of a Network, one builder per kind of moment; statusWriter writes them.
// Beside Ready stand the kstatus conditions: Reconciling while work is under way or
// retried, Stalled when only a change of the spec can help. GitOps tools read these, not
// Ready's reasons, to tell waiting from failing.

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

// warn sets the warning condition conditionType beside Ready in the pass's write: True
// with reason and message, or removed for "". When that changes the condition, tell runs
// once the write is made (a log line, a Warning Event), so that it is told once.
func (w *statusWriter) warn(network *samplecrdv1.Network, conditionType, reason, message string, tell func()) {
	old := meta.FindStatusCondition(network.Status.Conditions, conditionType)
	if (old == nil && message == "") || (old != nil && old.Message == message) {
		return
	}
	w.edit(statusEdit{tell: tell, apply: func(status *samplecrdv1.NetworkStatus) {
		if message == "" {
			meta.RemoveStatusCondition(&status.Conditions, conditionType)
		} else {
			setTrue(status, conditionType, network.Generation, reason, message)
		}
	}})
}
