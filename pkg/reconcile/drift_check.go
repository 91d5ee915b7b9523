package reconcile

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A drift check (pkg/resync) fills a project's store and hands each Network that fell due
// to a pass, with the time of that fill: the pass compares the Network with Neutron as
// listed then, records that time in status.lastSyncTime, and under the Report policy
// reports what differs instead of changing it.

// driftChecks hold, for each Network a check handed over, when its project was listed,
// until its pass takes it.
type driftChecks struct {
	mu    sync.Mutex
	byKey map[cache.ObjectName]time.Time
}

// Checked notes that the Network key is due a pass for its drift check, which compares it
// with its project's resources as listed at listedAt.
func (r *Reconciler) Checked(key cache.ObjectName, listedAt time.Time) {
	r.checks.mu.Lock()
	defer r.checks.mu.Unlock()
	if r.checks.byKey == nil {
		r.checks.byKey = map[cache.ObjectName]time.Time{}
	}
	if listedAt.After(r.checks.byKey[key]) {
		r.checks.byKey[key] = listedAt
	}
}

// take returns, and forgets, the time of the list key's check compares with; false when
// no check is waiting for it.
func (c *driftChecks) take(key cache.ObjectName) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	at, ok := c.byKey[key]
	delete(c.byKey, key)
	return at, ok
}

// forget drops key's check: the Network is gone.
func (c *driftChecks) forget(key cache.ObjectName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byKey, key)
}

// reportsOnly reports whether the pass may only report what differs: the Network's policy
// is Report, its generation was carried out already (its Drifted condition, written by the
// pass that did, is of this generation), and no grant taken away has to be carried out.
// A change of the spec moves the generation, so it is carried out, drift with it.
func reportsOnly(network *samplecrdv1.Network, p *pass) bool {
	if network.DriftPolicy() != samplecrdv1.DriftReport || len(p.withheld) > 0 || p.changes.None() {
		return false
	}
	c := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionDrifted)
	return c != nil && c.ObservedGeneration == network.Generation
}

// driftHeld writes what a check under Report found different, Neutron left as it is:
// Drifted=True with the findings and the check's time, and a Warning Event and a log line
// when the findings changed. Ready keeps what the pass that carried out the generation
// wrote.
func (w *statusWriter) driftHeld(ctx context.Context, network *samplecrdv1.Network, findings string, checkedAt time.Time, checked bool) error {
	message := truncate("Neutron differs from the spec, left as it is (spec.driftCheck.policy Report; Repair repairs it): "+findings, maxMessageLength)
	w.setDrifted(network, metav1.ConditionTrue, samplecrdv1.ReasonDriftReported, message, func() {
		klog.FromContext(ctx).Info("Network drifted; reporting, not repairing", "findings", findings)
		w.recorder.Event(network, corev1.EventTypeWarning, samplecrdv1.ReasonDriftReported, message)
	})
	if checked {
		w.synced(checkedAt)
	}
	return w.flush(ctx, network)
}

// noteDrift sets, in the pass's write, what the Drifted condition says of a Network that
// now matches its spec: False under Report, nothing under Repair.
func (w *statusWriter) noteDrift(network *samplecrdv1.Network) {
	if network.DriftPolicy() == samplecrdv1.DriftReport {
		w.setDrifted(network, metav1.ConditionFalse, samplecrdv1.ReasonNoDrift, "Neutron matched the spec at the last comparison", nil)
		return
	}
	if meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionDrifted) != nil {
		w.edit(statusEdit{apply: func(status *samplecrdv1.NetworkStatus) {
			meta.RemoveStatusCondition(&status.Conditions, samplecrdv1.ConditionDrifted)
		}})
	}
}

// setDrifted sets the Drifted condition in the pass's write; tell runs once the write is
// made, when the condition's status or message changed.
func (w *statusWriter) setDrifted(network *samplecrdv1.Network, s metav1.ConditionStatus, reason, message string, tell func()) {
	old := meta.FindStatusCondition(network.Status.Conditions, samplecrdv1.ConditionDrifted)
	if old != nil && old.Status == s && old.Message == message && old.ObservedGeneration == network.Generation {
		return
	}
	if old != nil && old.Status == s && old.Message == message {
		tell = nil
	}
	w.edit(statusEdit{tell: tell, apply: func(status *samplecrdv1.NetworkStatus) {
		meta.SetStatusCondition(&status.Conditions, metav1.Condition{Type: samplecrdv1.ConditionDrifted, Status: s, Reason: reason,
			Message: message, ObservedGeneration: network.Generation})
	}})
}

// synced records, in the pass's write, that Neutron was compared with the spec at at,
// unless status already has a later comparison. Status holds whole seconds.
func (w *statusWriter) synced(at time.Time) {
	stamp := metav1.NewTime(at).Rfc3339Copy()
	w.edit(statusEdit{apply: func(status *samplecrdv1.NetworkStatus) {
		if status.LastSyncTime == nil || status.LastSyncTime.Before(&stamp) {
			status.LastSyncTime = &stamp
		}
	}})
}

// IsDrifted reports whether the Network's last check under Report found drift.
func IsDrifted(network *samplecrdv1.Network) bool {
	return meta.IsStatusConditionTrue(network.Status.Conditions, samplecrdv1.ConditionDrifted)
}

// settled reports whether the Network is Ready for its generation.
func settled(network *samplecrdv1.Network) bool {
	c := network.ReadyCondition()
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == network.Generation
}
