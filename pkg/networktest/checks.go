package networktest

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// ReadyCondition returns n's Ready condition, failing the test when it has none.
func ReadyCondition(t *testing.T, n *samplecrdv1.Network) metav1.Condition {
	t.Helper()
	c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReady)
	if c == nil {
		t.Fatalf("Network %s has no Ready condition; status %+v", n.Name, n.Status)
	}
	return *c
}

// WantReady checks that the Network is Ready for its generation with both IDs and the
// gateway.
func WantReady(gateway string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := ReadyCondition(t, got)
		if c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonProvisioned || c.ObservedGeneration != got.Generation {
			t.Errorf("Ready = %s/%s for generation %d, want True/Provisioned for %d", c.Status, c.Reason, c.ObservedGeneration, got.Generation)
		}
		if got.Status.NetworkID == "" || got.Status.SubnetID == "" || got.Status.Gateway != gateway || got.Status.ObservedGeneration != got.Generation {
			t.Errorf("status = %+v, want both IDs, gateway %s, observedGeneration %d", got.Status, gateway, got.Generation)
		}
		WantProgressConditions(t, got)
	}
}

// WantNotReady checks that the Network is not Ready for reason, with a message holding
// inMessage.
func WantNotReady(reason, inMessage string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := ReadyCondition(t, got)
		if c.Status != metav1.ConditionFalse || c.Reason != reason || !strings.Contains(c.Message, inMessage) {
			t.Errorf("Ready = %s/%s %q, want False/%s mentioning %q", c.Status, c.Reason, c.Message, reason, inMessage)
		}
		WantProgressConditions(t, got)
	}
}

// WantImported checks that the Network reports network id and subnet, read-only: no
// finalizer.
func WantImported(id, subnetID, gateway string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := ReadyCondition(t, got)
		if c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonImported {
			t.Errorf("Ready = %s/%s %q, want True/Imported", c.Status, c.Reason, c.Message)
		}
		s := got.Status
		if s.NetworkID != id || s.SubnetID != subnetID || s.Gateway != gateway || s.MTU != 1442 || s.EnableDHCP == nil || !*s.EnableDHCP ||
			s.ObservedGeneration != got.Generation {
			t.Errorf("status = %+v, want network %s, subnet %s, gateway %s, MTU 1442, DHCP on", s, id, subnetID, gateway)
		}
		if len(got.Finalizers) != 0 {
			t.Errorf("finalizers = %q, want none: deleting an import deletes nothing", got.Finalizers)
		}
		WantProgressConditions(t, got)
	}
}

// WantProgressConditions checks that Reconciling and Stalled agree with a Ready condition
// of the Network's generation: neither when Ready, Stalled with Ready's reason and message
// for a terminal reason, Reconciling with them for a transient one.
func WantProgressConditions(t *testing.T, got *samplecrdv1.Network) {
	t.Helper()
	ready := ReadyCondition(t, got)
	reconciling := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionReconciling)
	stalled := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionStalled)
	var want, unwanted string
	var cond, other *metav1.Condition
	switch {
	case ready.Status == metav1.ConditionTrue:
		if reconciling != nil || stalled != nil {
			t.Errorf("Ready Network has Reconciling %+v and Stalled %+v, want neither", reconciling, stalled)
		}
		return
	case !slices.Contains(samplecrdv1.TransientReasons, ready.Reason):
		want, cond, unwanted, other = samplecrdv1.ConditionStalled, stalled, samplecrdv1.ConditionReconciling, reconciling
	default:
		want, cond, unwanted, other = samplecrdv1.ConditionReconciling, reconciling, samplecrdv1.ConditionStalled, stalled
	}
	if cond == nil || cond.Status != metav1.ConditionTrue || cond.Reason != ready.Reason || cond.Message != ready.Message ||
		cond.ObservedGeneration != got.Generation {
		t.Errorf("%s = %+v, want True with Ready's reason %s and message for generation %d", want, cond, ready.Reason, got.Generation)
	}
	if other != nil {
		t.Errorf("%s = %+v beside %s, want it removed", unwanted, other, want)
	}
}

// HasEvent reports whether one of events holds fragment.
func HasEvent(events []string, fragment string) bool {
	return slices.ContainsFunc(events, func(e string) bool { return strings.Contains(e, fragment) })
}

// EventKinds reduces recorded Events ("Type Reason message") to "Type Reason".
func EventKinds(events []string) []string {
	var out []string
	for _, e := range events {
		fields := strings.Fields(e)
		if len(fields) >= 2 {
			out = append(out, fields[0]+" "+fields[1])
		}
	}
	return out
}

// IsTerminal reports whether err is a failure recorded in status that waits for a change.
func IsTerminal(err error) bool {
	f, ok := reconcile.RecordedFailure(err)
	return ok && f.Terminal
}
