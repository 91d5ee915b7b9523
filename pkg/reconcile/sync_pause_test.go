package reconcile_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// pauseCases hold a Network back with the reconcile annotation: no Neutron call, only its
// status says so, until the annotation goes.
func pauseCases() []syncCase {
	return []syncCase{{
		name:   "paused, spec changed: no Neutron call; Paused, and Reconciling says the change waits",
		object: withAnnotation(WithGeneration(RealizedNetwork("held", "10.20.0.0/24", "10.20.0.254"), 2), samplecrdv1.ReconcilePaused),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.20.0.0/24", "10.20.0.1")
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Normal Paused"},
		wantNeutron: wantGateway("10.20.0.1"),
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionPaused, samplecrdv1.ReasonPaused, "remove the annotation to resume")
			wantCondition(t, got, samplecrdv1.ConditionReconciling, samplecrdv1.ReasonPaused, "generation 2 waits")
			if c := got.ReadyCondition(); c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != 1 {
				t.Errorf("Ready = %+v, want True for generation 1, as before the pause", c)
			}
		},
	}, {
		name:   "paused and in step: Paused alone, nothing waits",
		object: withAnnotation(RealizedNetwork("still", "10.20.1.0/24", ""), samplecrdv1.ReconcilePaused),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.20.1.0/24", "10.20.1.1")
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Normal Paused"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionPaused, samplecrdv1.ReasonPaused, "")
			if c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionReconciling); c != nil {
				t.Errorf("Reconciling = %+v, want none: nothing waits", c)
			}
		},
	}, {
		name:   "paused, already said so: nothing written",
		object: pausedInStatus(withAnnotation(RealizedNetwork("quiet", "10.20.2.0/24", ""), samplecrdv1.ReconcilePaused)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.20.2.0/24", "10.20.2.1")
		},
		want: succeeds,
	}, {
		name:   "paused, deleted: the deletion waits with the finalizer, Neutron untouched",
		object: withAnnotation(Deleting(RealizedNetwork("kept", "10.20.3.0/24", "")), samplecrdv1.ReconcilePaused),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.20.3.0/24", "10.20.3.1")
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Normal Paused"},
		wantNeutron: wantGateway("10.20.3.1"),
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionReconciling, samplecrdv1.ReasonPaused, "the deletion of the Neutron network waits")
			if len(got.Finalizers) != 1 {
				t.Errorf("finalizers = %q, want the controller's kept", got.Finalizers)
			}
		},
	}, {
		name:   "a misspelt value pauses too, and the condition names it",
		object: withAnnotation(NewNetwork("typo", "10.20.4.0/24", ""), "pasued"),
		want:   succeeds, wantWrites: []string{writeStatus}, wantEvents: []string{"Normal Paused"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionPaused, samplecrdv1.ReasonPaused, `the unknown value "pasued"`)
			wantCondition(t, got, samplecrdv1.ConditionReconciling, samplecrdv1.ReasonPaused, "generation 1 waits")
		},
	}, {
		name:   "paused before its credentials are read: a missing Secret is not looked for",
		object: withAnnotation(withCredentials(NewNetwork("nocreds", "10.20.5.0/24", ""), "missing"), samplecrdv1.ReconcilePaused),
		want:   succeeds, wantWrites: []string{writeStatus}, wantEvents: []string{"Normal Paused"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionPaused, samplecrdv1.ReasonPaused, "")
		},
	}, {
		name:   "resumed: Paused goes, then the change that waited is applied",
		object: pausedInStatus(WithGeneration(RealizedNetwork("back", "10.20.6.0/24", "10.20.6.254"), 2)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.20.6.0/24", "10.20.6.1")
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"update subnet"},
		wantEvents:  []string{"Normal GatewayUpdated", "Normal Resumed", "Normal Provisioned"},
		wantNeutron: wantGateway("10.20.6.254"),
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.20.6.254")(t, got)
			if c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionPaused); c != nil {
				t.Errorf("Paused = %+v after resuming, want none", c)
			}
		},
	}}
}

func withAnnotation(n *samplecrdv1.Network, value string) *samplecrdv1.Network {
	n.Annotations = map[string]string{samplecrdv1.AnnotationReconcile: value}
	return n
}

// pausedInStatus gives n the conditions a pause wrote, as for its generation.
func pausedInStatus(n *samplecrdv1.Network) *samplecrdv1.Network {
	message := "reconciling is paused by the annotation " + samplecrdv1.AnnotationReconcile + "=" + samplecrdv1.ReconcilePaused +
		": Neutron is neither changed nor repaired; remove the annotation to resume"
	meta.SetStatusCondition(&n.Status.Conditions, metav1.Condition{Type: samplecrdv1.ConditionPaused, Status: metav1.ConditionTrue,
		Reason: samplecrdv1.ReasonPaused, Message: message, ObservedGeneration: n.Generation})
	return n
}

func wantCondition(t *testing.T, n *samplecrdv1.Network, typ, reason, inMessage string) {
	t.Helper()
	c := meta.FindStatusCondition(n.Status.Conditions, typ)
	if c == nil || c.Status != metav1.ConditionTrue || c.Reason != reason || c.ObservedGeneration != n.Generation || !strings.Contains(c.Message, inMessage) {
		t.Errorf("%s = %+v, want True, %s, for generation %d, saying %q", typ, c, reason, n.Generation, inMessage)
	}
}

func wantGateway(gateway string) func(*testing.T, *Fixture, neutron.Owner) {
	return func(t *testing.T, f *Fixture, _ neutron.Owner) {
		if s := f.Neutron.Subnets(); len(s) != 1 || s[0].GatewayIP != gateway {
			t.Errorf("subnets = %+v, want one with gateway %s", s, gateway)
		}
	}
}
