package reconcile_test

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
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

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
		n := WithGeneration(WithFinalizer(NewNetwork("fixed", "10.40.0.0/24", "")), 2)
		const message = "Neutron rejected the request (create network): MTU too big; fix the spec"
		n.Status.ObservedGeneration = 1
		SetReadyCondition(&n.Status, 1, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec, message)
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
		before    func(f *Fixture)
		syncs     int
		wantSteps []progressStep
	}{{
		name:   "new Network: one status write, Ready once it is created",
		object: NewNetwork("fresh", "10.41.0.0/24", ""),
		wantSteps: []progressStep{
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:    "new Network in a project: the project rides in the Ready write",
		project: "project-own",
		object:  NewNetwork("projected", "10.42.0.0/24", ""),
		wantSteps: []progressStep{
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:   "Neutron down: Reconciling with Ready's reason; the retry that fails again writes nothing",
		object: NewNetwork("flaky", "10.43.0.0/24", ""),
		before: func(f *Fixture) { f.Neutron.FailWith(unavailable.Op, unavailable) },
		syncs:  2,
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonNeutronUnavailable, ready: "False/NeutronUnavailable", kstatus: kstatus.InProgressStatus, inMessage: "connection refused"},
		},
	}, {
		name:   "Neutron rejects the spec: Stalled with Neutron's message; a look again after a restart writes nothing",
		object: NewNetwork("multicast", "10.44.0.0/24", ""),
		before: func(f *Fixture) { f.Neutron.FailWith(rejected.Op, rejected) },
		syncs:  2,
		wantSteps: []progressStep{
			{stalled: samplecrdv1.ReasonInvalidSpec, ready: "False/InvalidSpec", kstatus: kstatus.FailedStatus, inMessage: "Multicast IP subnet is not supported"},
		},
	}, {
		name:   "spec the controller cannot plan: Stalled, no Reconciling first",
		object: NewNetwork("unplannable", "10.0.0.1/24", ""),
		wantSteps: []progressStep{
			{stalled: samplecrdv1.ReasonInvalidSpec, ready: "False/InvalidSpec", kstatus: kstatus.FailedStatus, inMessage: "10.0.0.1/24"},
		},
	}, {
		name:   "spec fixed after Stalled: Stalled goes with the Ready write",
		object: stalledMTU(),
		wantSteps: []progressStep{
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:   "spec changed on a Ready Network: one write, Ready for the new generation",
		object: WithGeneration(withMTU(RealizedNetwork("resized", "10.45.0.0/24", ""), 1300), 2),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.45.0.0/24", "10.45.0.1")
		},
		wantSteps: []progressStep{
			{ready: "True/Provisioned", kstatus: kstatus.CurrentStatus},
		},
	}, {
		name:   "Ready Network in step with Neutron: no write",
		object: RealizedNetwork("steady", "10.46.0.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.46.0.0/24", "10.46.0.1")
		},
		syncs: 2,
	}, {
		name:   "Ready Network whose subnet was changed by hand: repaired, no write",
		object: RealizedNetwork("drifted", "10.47.0.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.47.0.0/24", "10.47.0.9")
		},
	}, {
		name:   "status written before Reconciling existed, Neutron still down: one write adds it",
		object: WithFinalizer(NewNetwork("upgraded", "10.48.0.0/24", "")),
		before: func(f *Fixture) {
			n := f.Refresh("default", "upgraded")
			SetReadyCondition(&n.Status, 1, metav1.ConditionFalse, samplecrdv1.ReasonNeutronUnavailable, "Neutron is unavailable")
			n.Status.ObservedGeneration = 1
			if _, err := f.Client.SamplecrdV1().Networks("default").UpdateStatus(f.Ctx, n, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			f.Refresh("default", "upgraded")
			f.Client.ClearActions()
			f.Neutron.FailWith(unavailable.Op, unavailable)
		},
		syncs: 2,
		wantSteps: []progressStep{
			{reconciling: samplecrdv1.ReasonNeutronUnavailable, ready: "False/NeutronUnavailable", kstatus: kstatus.InProgressStatus},
		},
	}, {
		name:   "import of a network Neutron does not have: Stalled, Failed",
		object: ImportedNetwork("missing", samplecrdv1.NetworkImport{NetworkName: "nowhere"}, ""),
		syncs:  2,
		wantSteps: []progressStep{
			{stalled: samplecrdv1.ReasonImportNotFound, ready: "False/ImportNotFound", kstatus: kstatus.FailedStatus},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := NewInProject(t, tc.project, tc.object)
			if tc.neutron != nil {
				tc.neutron(f.Neutron, OwnerOf(tc.object))
			}
			f.StartLeading()
			if tc.before != nil {
				tc.before(f)
			}
			for i := range max(tc.syncs, 1) {
				_ = f.Sync(tc.object) // the outcomes are TestSync's; this test reads the writes
				if i+1 < tc.syncs {
					f.Refresh(tc.object.Namespace, tc.object.Name)
				}
			}
			var got []progressStep
			for _, written := range statusWrites(f) {
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
func statusWrites(f *Fixture) []*samplecrdv1.Network {
	var out []*samplecrdv1.Network
	for _, a := range f.Client.Actions() {
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
