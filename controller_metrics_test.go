package main

import (
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/networktest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// withReady returns network with a Ready condition for generation.
func withReady(network *samplecrdv1.Network, generation int64, status metav1.ConditionStatus, reason string) *samplecrdv1.Network {
	n := network.DeepCopy()
	n.Status.ObservedGeneration = generation
	networktest.SetReadyCondition(&n.Status, generation, status, reason, "test")
	return n
}

// TestNetworksGaugeIsTheLeadersOnly: every state is exported at zero from the start, the
// counts follow the cache, and a replica that does not lead exports none.
func TestNetworksGaugeIsTheLeadersOnly(t *testing.T) {
	ready := withReady(networktest.NewNetwork("ready", "10.0.0.0/24", ""), 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned)
	down := withReady(networktest.NewNetwork("down", "10.0.1.0/24", ""), 1, metav1.ConditionFalse, samplecrdv1.ReasonNeutronUnavailable)
	f := newFixture(t, ready, down, networktest.NewNetwork("new", "10.0.2.0/24", ""))
	m := f.controller.metrics

	if got := networktest.Series(t, m, "network_controller_networks"); len(got) != 0 {
		t.Errorf("a replica that does not lead exports %d network_controller_networks series, want none", len(got))
	}
	m.SetLeader(true)
	got := networktest.Series(t, m, "network_controller_networks")
	if want := len(samplecrdv1.ReadyReasons) + 2; len(got) != want {
		t.Errorf("%d network_controller_networks series, want %d (every reason, Pending and Paused)", len(got), want)
	}
	for key, want := range map[string]float64{
		"Provisioned/True": 1, "NeutronUnavailable/False": 1, "Pending/Unknown": 1,
		"InvalidSpec/False": 0, "Imported/True": 0, "KeystoneUnavailable/False": 0, "Paused/Unknown": 0,
	} {
		if s, ok := got[key]; !ok || s.GetGauge().GetValue() != want {
			t.Errorf("network_controller_networks{reason/status=%s} = %v (present %v), want %v", key, s.GetGauge().GetValue(), ok, want)
		}
	}
	if leader := networktest.Series(t, m, "network_controller_leader")[""]; leader.GetGauge().GetValue() != 1 {
		t.Errorf("network_controller_leader = %v while leading, want 1", leader.GetGauge().GetValue())
	}
	m.SetLeader(false)
	if got := networktest.Series(t, m, "network_controller_networks"); len(got) != 0 {
		t.Errorf("after losing the lead %d network_controller_networks series remain, want none", len(got))
	}
}

// TestTimeToReadyObservedOnce: the worker that makes a Network Ready records its wait,
// once; syncs that find it Ready record nothing more.
func TestTimeToReadyObservedOnce(t *testing.T) {
	n := networktest.NewNetwork("timed", "10.0.0.0/24", "")
	n.CreationTimestamp = metav1.NewTime(time.Now())
	f := newFixture(t, n)
	f.startLeading()
	f.controller.handleAdd(n, false)
	if err := f.sync(n); err != nil {
		t.Fatal(err)
	}
	ready := f.Refresh(n.Namespace, n.Name)
	f.controller.handleUpdate(n, ready)
	if err := f.sync(ready); err != nil {
		t.Fatal(err)
	}
	got := networktest.Series(t, f.controller.metrics, "network_controller_time_to_ready_seconds")
	if c := got[metrics.ChangeCreate].GetHistogram().GetSampleCount(); c != 1 {
		t.Errorf("time_to_ready{change=create} count = %d, want 1", c)
	}
	if s, ok := got[metrics.ChangeUpdate]; !ok || s.GetHistogram().GetSampleCount() != 0 {
		t.Errorf("time_to_ready{change=update} = %v (present %v), want present at 0", s, ok)
	}
}

// TestTimeToReadyAfterARetry: a Network that failed first is timed from when it was seen,
// when a retry makes it Ready.
func TestTimeToReadyAfterARetry(t *testing.T) {
	n := networktest.NewNetwork("retried", "10.0.0.0/24", "")
	n.CreationTimestamp = metav1.NewTime(time.Now())
	f := newFixture(t, n)
	f.startLeading()
	f.controller.handleAdd(n, false)
	f.Neutron.FailWith("create network", &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"})
	if err := f.sync(n); err == nil {
		t.Fatal("the first sync did not fail")
	}
	failed := f.Refresh(n.Namespace, n.Name)
	f.controller.handleUpdate(n, failed)
	f.Neutron.FailWith("create network", nil)
	if err := f.sync(failed); err != nil {
		t.Fatal(err)
	}
	if c := networktest.Series(t, f.controller.metrics, "network_controller_time_to_ready_seconds")[metrics.ChangeCreate].GetHistogram().GetSampleCount(); c != 1 {
		t.Errorf("time_to_ready{change=create} count = %d after a retry made the Network Ready, want 1", c)
	}
}

// TestTimeToReadyWhenTheInformerIsFirst: the informer may deliver the Ready status, and end
// the wait, before the worker hears back from its write; the wait still counts, once.
func TestTimeToReadyWhenTheInformerIsFirst(t *testing.T) {
	n := networktest.NewNetwork("raced", "10.0.0.0/24", "")
	n.CreationTimestamp = metav1.NewTime(time.Now())
	f := newFixture(t, n)
	f.startLeading()
	f.controller.handleAdd(n, false)
	delivered := 0
	f.Client.PrependReactor("update", "networks", func(action k8stesting.Action) (bool, runtime.Object, error) {
		if written := action.(k8stesting.UpdateAction).GetObject().(*samplecrdv1.Network); action.GetSubresource() == "status" && written.IsReady() {
			f.controller.reconciler.Saw(written)
			delivered++
		}
		return false, nil, nil
	})
	if err := f.sync(n); err != nil {
		t.Fatal(err)
	}
	if delivered != 1 {
		t.Fatalf("the Ready status write was delivered %d times before the worker heard back, want 1", delivered)
	}
	if c := networktest.Series(t, f.controller.metrics, "network_controller_time_to_ready_seconds")[metrics.ChangeCreate].GetHistogram().GetSampleCount(); c != 1 {
		t.Errorf("time_to_ready{change=create} count = %d, want 1", c)
	}
}
