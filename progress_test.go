package main

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	core "k8s.io/client-go/testing"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// wantProgressConditions checks that Reconciling and Stalled agree with a Ready condition
// of the Network's generation: neither when Ready, Stalled with Ready's reason and message
// for a terminal reason, Reconciling with them for a transient one.
func wantProgressConditions(t *testing.T, got *samplecrdv1.Network) {
	t.Helper()
	ready := readyCondition(t, got)
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

// progressStep is what one status write said: the conditions beside Ready and what
// kstatus makes of the object written.
type progressStep struct {
	reconciling string // reason of Reconciling=True, or "" for none
	stalled     string // reason of Stalled=True, or "" for none
	ready       string // "True/Provisioned", "False/InvalidSpec", or "" for no Ready condition
	kstatus     kstatus.Status
	inMessage   string // in the kstatus message, when set
}

// TestProgressConditions follows every status write of a sync (and of its retry, when
// the case has one) through the kstatus library that Flux, kpt and kapp use: what each
// write says, and that a sync with nothing new to say writes nothing.
func TestProgressConditions(t *testing.T) {
	stalledMTU := func() *samplecrdv1.Network {
		n := withGeneration(withFinalizer(newNetwork("fixed", "10.40.0.0/24", "")), 2)
		const message = "Neutron rejected the request (create network): MTU too big; fix the spec"
		n.Status.ObservedGeneration = 1
		setReadyCondition(&n.Status, 1, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec, message)
		meta.SetStatusCondition(&n.Status.Conditions, metav1.Condition{Type: samplecrdv1.ConditionStalled, Status: metav1.ConditionTrue,
			Reason: samplecrdv1.ReasonInvalidSpec, Message: message, ObservedGeneration: 1})
		return n
	}
	unavailable := &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"}
	rejected := &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400,
		Message: "Invalid input for operation: Multicast IP subnet is not supported if enable_dhcp is True."}

	cases := []struct {
		name      string
		project   string
		object    *samplecrdv1.Network
		neutron   func(d *neutronfake.Driver, owner neutron.Owner)
		before    func(f *fixture)
		syncs     int
		wantSteps []progressStep
	}{{
		name:   "new Network: Reconciling while it is created, then Ready alone",
		object: newNetwork("fresh", "10.41.0.0/24", ""),
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonCreating, kstatus: kstatus.InProgressStatus, inMessage: "creating the Neutron network and subnet"},
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:    "new Network in a project: Reconciling rides in the project's write",
		project: "project-own",
		object:  newNetwork("projected", "10.42.0.0/24", ""),
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonCreating, kstatus: kstatus.InProgressStatus},
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:   "Neutron down: Reconciling with Ready's reason; the retry that fails again writes nothing",
		object: newNetwork("flaky", "10.43.0.0/24", ""),
		before: func(f *fixture) { f.neutron.FailWith(unavailable.Op, unavailable) },
		syncs:  2,
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonCreating, kstatus: kstatus.InProgressStatus},
			{reconciling: samplecrdv1.ReasonNeutronUnavailable, ready: "False/NeutronUnavailable", kstatus: kstatus.InProgressStatus, inMessage: "connection refused"},
		},
	}, {
		name:   "Neutron rejects the spec: Stalled with Neutron's message; a look again after a restart writes nothing",
		object: newNetwork("multicast", "10.44.0.0/24", ""),
		before: func(f *fixture) { f.neutron.FailWith(rejected.Op, rejected) },
		syncs:  2,
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonCreating, kstatus: kstatus.InProgressStatus},
			{stalled: samplecrdv1.ReasonInvalidSpec, ready: "False/InvalidSpec", kstatus: kstatus.FailedStatus, inMessage: "Multicast IP subnet is not supported"},
		},
	}, {
		name:   "spec the controller cannot plan: Stalled, no Reconciling first",
		object: newNetwork("unplannable", "10.0.0.1/24", ""),
		wantSteps: []progressStep{
			{stalled: samplecrdv1.ReasonInvalidSpec, ready: "False/InvalidSpec", kstatus: kstatus.FailedStatus, inMessage: "10.0.0.1/24"},
		},
	}, {
		name:   "spec fixed after Stalled: Stalled goes as the create starts",
		object: stalledMTU(),
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonCreating, ready: "False/InvalidSpec", kstatus: kstatus.InProgressStatus},
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:   "spec changed on a Ready Network: Reconciling Updating beside the old generation's Ready",
		object: withGeneration(withMTU(realizedNetwork("resized", "10.45.0.0/24", ""), 1300), 2),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "10.45.0.0/24", "10.45.0.1")
		},
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonUpdating, ready: "True/Provisioned", kstatus: kstatus.InProgressStatus, inMessage: "mtu from 0 to 1300"},
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:   "Ready Network in step with Neutron: no write",
		object: realizedNetwork("steady", "10.46.0.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "10.46.0.0/24", "10.46.0.1")
		},
		syncs: 2,
	}, {
		name:   "Ready Network whose subnet was changed by hand: repaired, no write",
		object: realizedNetwork("drifted", "10.47.0.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "10.47.0.0/24", "10.47.0.9")
		},
	}, {
		name:   "status written before Reconciling existed, Neutron still down: one write adds it",
		object: withFinalizer(newNetwork("upgraded", "10.48.0.0/24", "")),
		before: func(f *fixture) {
			n := f.refresh("default", "upgraded")
			setReadyCondition(&n.Status, 1, metav1.ConditionFalse, samplecrdv1.ReasonNeutronUnavailable, "Neutron is unavailable")
			n.Status.ObservedGeneration = 1
			if _, err := f.client.SamplecrdV1().Networks("default").UpdateStatus(f.ctx, n, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			f.refresh("default", "upgraded")
			f.client.ClearActions()
			f.neutron.FailWith(unavailable.Op, unavailable)
		},
		syncs: 2,
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonNeutronUnavailable, ready: "False/NeutronUnavailable", kstatus: kstatus.InProgressStatus},
		},
	}, {
		name:   "import of a network Neutron does not have: Stalled, Failed",
		object: importedNetwork("missing", samplecrdv1.NetworkImport{NetworkName: "nowhere"}, ""),
		syncs:  2,
		wantSteps: []progressStep{
			{stalled: samplecrdv1.ReasonImportNotFound, ready: "False/ImportNotFound", kstatus: kstatus.FailedStatus},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureInProject(t, tc.project, tc.object)
			if tc.neutron != nil {
				tc.neutron(f.neutron, ownerOf(tc.object))
			}
			f.startLeading()
			if tc.before != nil {
				tc.before(f)
			}
			for i := range max(tc.syncs, 1) {
				_ = f.sync(tc.object) // the outcomes are TestSyncHandler's; this test reads the writes
				if i+1 < tc.syncs {
					f.refresh(tc.object.Namespace, tc.object.Name)
				}
			}
			var got []progressStep
			for _, written := range f.statusWrites() {
				got = append(got, stepOf(t, written))
			}
			if len(got) != len(tc.wantSteps) {
				t.Fatalf("status writes:\n%s\nwant %d of them", describeSteps(got), len(tc.wantSteps))
			}
			for i, want := range tc.wantSteps {
				message := got[i].inMessage
				got[i].inMessage = want.inMessage
				if got[i] != want || !strings.Contains(message, want.inMessage) {
					got[i].inMessage = message
					t.Errorf("status write %d: %s, want %s", i+1, describeStep(got[i]), describeStep(want))
				}
			}
		})
	}
}

// statusWrites returns the objects written through the status subresource, in order.
func (f *fixture) statusWrites() []*samplecrdv1.Network {
	var out []*samplecrdv1.Network
	for _, a := range f.client.Actions() {
		if u, ok := a.(core.UpdateAction); ok && a.GetSubresource() == "status" {
			out = append(out, u.GetObject().(*samplecrdv1.Network).DeepCopy())
		}
	}
	return out
}

// stepOf reads the conditions of a written Network and computes its kstatus, with
// inMessage set to the kstatus message.
func stepOf(t *testing.T, n *samplecrdv1.Network) progressStep {
	t.Helper()
	var step progressStep
	if c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReconciling); c != nil {
		step.reconciling = c.Reason
		if c.Status != metav1.ConditionTrue || c.ObservedGeneration != n.Generation {
			t.Errorf("Reconciling = %+v, want True for generation %d or absent", c, n.Generation)
		}
	}
	if c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionStalled); c != nil {
		step.stalled = c.Reason
		if c.Status != metav1.ConditionTrue || c.ObservedGeneration != n.Generation {
			t.Errorf("Stalled = %+v, want True for generation %d or absent", c, n.Generation)
		}
	}
	if c := n.ReadyCondition(); c != nil {
		step.ready = string(c.Status) + "/" + c.Reason
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(n)
	if err != nil {
		t.Fatalf("converting %s: %v", n.Name, err)
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetAPIVersion(samplecrdv1.SchemeGroupVersion.String())
	u.SetKind("Network")
	result, err := kstatus.Compute(u)
	if err != nil {
		t.Fatalf("kstatus of %s: %v", n.Name, err)
	}
	step.kstatus, step.inMessage = result.Status, result.Message
	return step
}

func describeStep(s progressStep) string {
	return "Reconciling " + orDash(s.reconciling) + ", Stalled " + orDash(s.stalled) + ", Ready " + orDash(s.ready) +
		", kstatus " + string(s.kstatus) + " " + `"` + s.inMessage + `"`
}

func describeSteps(steps []progressStep) string {
	lines := make([]string, len(steps))
	for i, s := range steps {
		lines[i] = "  " + describeStep(s)
	}
	return strings.Join(slices.Clip(lines), "\n")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
