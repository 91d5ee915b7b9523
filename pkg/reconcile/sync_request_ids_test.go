package reconcile_test

import (
	"slices"
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A failed call's condition and Event name the request ID Neutron answered with; a retry
// that fails alike, with another ID, writes nothing and raises no Event.
func TestAFailedCallNamesTheRequestNeutronAnswered(t *testing.T) {
	const first, second, third = "req-11111111-1111-4111-8111-111111111111", "req-22222222-2222-4222-8222-222222222222", "req-33333333-3333-4333-8333-333333333333"
	network := NewNetwork("quota", "10.9.0.0/24", "")
	f := New(t, network)
	f.StartLeading()
	overQuota := func(id, message string) *neutron.Error {
		return &neutron.Error{Op: "create network", Kind: neutron.KindOverQuota, Code: 409, Type: "OverQuota", Message: message, RequestID: id}
	}

	f.Neutron.FailWith("create network", overQuota(first, "Quota exceeded for resources: ['network']."))
	checkOutcome(t, "sync", retries, f.Sync(network))
	got := f.Refresh(network.Namespace, network.Name)
	ready := ReadyCondition(t, got)
	if !strings.HasSuffix(ready.Message, "(Neutron request "+first+")") {
		t.Fatalf("Ready message = %q, want it to end naming Neutron's request %s", ready.Message, first)
	}
	events := f.Events()
	if len(events) != 1 || !strings.Contains(events[0], first) {
		t.Fatalf("Events = %q, want one naming %s", events, first)
	}
	writes := f.Writes()

	f.Neutron.FailWith("create network", overQuota(second, "Quota exceeded for resources: ['network']."))
	checkOutcome(t, "retry", retries, f.Sync(got))
	if w := f.Writes(); !slices.Equal(w, writes) {
		t.Errorf("a retry failing alike wrote %q, want no more than %q", w, writes)
	}
	if e := f.Events(); len(e) != 0 { // Events returns those since the last call
		t.Errorf("a retry failing alike raised Events %q", e)
	}
	got = f.Refresh(network.Namespace, network.Name)
	if m := ReadyCondition(t, got).Message; m != ready.Message {
		t.Errorf("Ready message after the retry = %q, want the first kept: %q", m, ready.Message)
	}

	f.Neutron.FailWith("create network", overQuota(third, "Quota exceeded for resources: ['network', 'subnet']."))
	checkOutcome(t, "second retry", retries, f.Sync(got))
	got = f.Refresh(network.Namespace, network.Name)
	if m := ReadyCondition(t, got).Message; !strings.HasSuffix(m, "(Neutron request "+third+")") {
		t.Errorf("Ready message after another failure = %q, want it to name %s", m, third)
	}
	if e := f.Events(); len(e) != 1 || !strings.Contains(e[0], third) {
		t.Errorf("Events = %q, want one more naming %s", e, third)
	}
	if c := ReadyCondition(t, got); c.Reason != samplecrdv1.ReasonOverQuota {
		t.Errorf("Ready reason = %s", c.Reason)
	}
}
