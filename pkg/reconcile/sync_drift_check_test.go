package reconcile_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// driftCheckCases are a Network's drift policy (spec.driftCheck.policy): under Report a
// generation carried out is compared and what differs is reported, Neutron left as it
// is; a spec change, or Repair, changes Neutron.
func driftCheckCases() []syncCase {
	dhcpOff := PutRealizedWith("10.50.0.0/24", func(s *neutron.Subnet) { s.EnableDHCP = false })
	return []syncCase{{
		name:       "Report, its generation carried out, DHCP turned off by hand: no Neutron change, Drifted names both values",
		object:     withDrifted(withDriftPolicy(RealizedNetwork("held", "10.50.0.0/24", ""), samplecrdv1.DriftReport), 1, metav1.ConditionFalse),
		neutron:    dhcpOff,
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning DriftReported"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if s := f.Neutron.Subnets()[0]; s.EnableDHCP {
				t.Errorf("subnet's DHCP is on: the hand change was repaired under Report")
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionDrifted)
			if c == nil || c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonDriftReported ||
				!strings.Contains(c.Message, "Neutron subnet subnet-of-held was changed outside the controller: dhcp is off in Neutron, on in the spec") {
				t.Errorf("Drifted = %+v, want True, DriftReported, naming dhcp off in Neutron and on in the spec", c)
			}
			WantReady("10.50.0.1")(t, got)
		},
	}, {
		name:       "Report, a change of the spec not carried out yet: carried out, the hand change with it, Drifted False",
		object:     withDrifted(WithGeneration(withDriftPolicy(RealizedNetwork("changed", "10.50.0.0/24", ""), samplecrdv1.DriftReport), 2), 1, metav1.ConditionTrue),
		neutron:    dhcpOff,
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated", "Normal Provisioned"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionDrifted)
			if c == nil || c.Status != metav1.ConditionFalse || c.Reason != samplecrdv1.ReasonNoDrift || c.ObservedGeneration != 2 {
				t.Errorf("Drifted = %+v, want False, NoDrift, of generation 2", c)
			}
			if got.Status.LastSyncTime == nil {
				t.Error("status.lastSyncTime is unset after a pass that carried out a generation")
			}
		},
	}, {
		name:       "Repair, a Drifted condition left from Report: repaired, the condition removed",
		object:     withDrifted(RealizedNetwork("repaired", "10.50.0.0/24", ""), 1, metav1.ConditionTrue),
		neutron:    dhcpOff,
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionDrifted); c != nil {
				t.Errorf("Drifted = %+v, want none under Repair", c)
			}
		},
	}, {
		name:       "Report, Neutron matches: nothing written",
		object:     withDrifted(withDriftPolicy(RealizedNetwork("quiet", "10.50.0.0/24", ""), samplecrdv1.DriftReport), 1, metav1.ConditionFalse),
		neutron:    PutRealizedWith("10.50.0.0/24", nil),
		want:       succeeds,
		wantObject: WantReady("10.50.0.1"),
	}}
}

func withDriftPolicy(n *samplecrdv1.Network, policy samplecrdv1.DriftPolicy) *samplecrdv1.Network {
	n.Spec.DriftCheck = &samplecrdv1.DriftCheck{Policy: policy}
	return n
}

// withDrifted gives n the Drifted condition a pass of generation wrote.
func withDrifted(n *samplecrdv1.Network, generation int64, status metav1.ConditionStatus) *samplecrdv1.Network {
	reason, message := samplecrdv1.ReasonNoDrift, "Neutron matched the spec at the last comparison"
	if status == metav1.ConditionTrue {
		reason, message = samplecrdv1.ReasonDriftReported, "Neutron differs from the spec, left as it is: as an earlier check found"
	}
	meta.SetStatusCondition(&n.Status.Conditions, metav1.Condition{Type: samplecrdv1.ConditionDrifted, Status: status, Reason: reason,
		Message: message, ObservedGeneration: generation})
	return n
}

// A drift reported is told once: the next check finding the same costs no write and no
// Event; one finding more is told again. The check's list time goes into lastSyncTime.
func TestReportedDriftIsToldOncePerChange(t *testing.T) {
	network := withDrifted(withDriftPolicy(RealizedNetwork("told", "10.51.0.0/24", ""), samplecrdv1.DriftReport), 1, metav1.ConditionFalse)
	f := New(t, network)
	PutRealizedWith("10.51.0.0/24", func(s *neutron.Subnet) { s.EnableDHCP = false })(f.Neutron, OwnerOf(network))
	f.StartLeading()
	key := cache.MetaObjectToName(network)
	listed := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)

	f.Reconciler.Checked(key, listed)
	if err := f.Sync(network); err != nil {
		t.Fatalf("first check: %v", err)
	}
	got := f.Refresh("default", "told")
	if got.Status.LastSyncTime == nil || !got.Status.LastSyncTime.Time.Equal(listed) {
		t.Errorf("status.lastSyncTime = %v, want the check's list time %v", got.Status.LastSyncTime, listed)
	}
	if events := EventKinds(f.Events()); len(events) != 1 || events[0] != "Warning DriftReported" {
		t.Errorf("Events of the first check = %q, want one DriftReported", events)
	}

	// The same drift at the next check: only lastSyncTime moves.
	f.Reconciler.Checked(key, listed.Add(time.Minute))
	writesBefore := len(f.Writes())
	if err := f.Sync(got); err != nil {
		t.Fatalf("second check: %v", err)
	}
	got = f.Refresh("default", "told")
	if events := f.Events(); len(events) != 0 {
		t.Errorf("Events of a check finding the same drift = %q, want none", events)
	}
	if n := len(f.Writes()) - writesBefore; n != 1 || !got.Status.LastSyncTime.Time.Equal(listed.Add(time.Minute)) {
		t.Errorf("second check: %d writes, lastSyncTime %v; want one write moving it to %v", n, got.Status.LastSyncTime, listed.Add(time.Minute))
	}

	// A pass that is no check, finding the same: no write at all.
	writesBefore = len(f.Writes())
	if err := f.Sync(got); err != nil {
		t.Fatalf("pass: %v", err)
	}
	if n := len(f.Writes()) - writesBefore; n != 0 {
		t.Errorf("a pass that found the same drift without a check wrote %d times, want 0", n)
	}

	// One more hand change: told again, both findings named.
	subnet := f.Neutron.Subnets()[0]
	subnet.DNSNameservers = []string{"192.0.2.53"}
	f.Neutron.PutSubnet(subnet)
	for _, p := range f.Tenants.Projects() {
		if err := p.Store.Fill(f.Ctx); err != nil {
			t.Fatalf("listing the project again: %v", err)
		}
	}
	if err := f.Sync(f.Refresh("default", "told")); err != nil {
		t.Fatalf("third pass: %v", err)
	}
	got = f.Refresh("default", "told")
	c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionDrifted)
	if events := EventKinds(f.Events()); len(events) != 1 || events[0] != "Warning DriftReported" || c == nil ||
		!strings.Contains(c.Message, "dhcp is off in Neutron") || !strings.Contains(c.Message, "dns nameservers is 192.0.2.53 in Neutron, none in the spec") {
		t.Errorf("after a second hand change: Events %q, Drifted %+v; want one more DriftReported naming both", events, c)
	}
	if calls := f.Neutron.Calls(); strings.Contains(strings.Join(calls, ","), "update") {
		t.Errorf("Neutron calls under Report = %q, want no update", calls)
	}
}

// A check whose pass fails is recorded by the pass that succeeds after it.
func TestAFailedPassLeavesItsCheckToTheNext(t *testing.T) {
	network := RealizedNetwork("retried", "10.52.0.0/24", "")
	f := New(t, network)
	PutRealizedWith("10.52.0.0/24", func(s *neutron.Subnet) { s.EnableDHCP = false })(f.Neutron, OwnerOf(network))
	f.StartLeading()
	listed := time.Date(2026, 12, 7, 11, 0, 0, 0, time.UTC)
	f.Reconciler.Checked(cache.MetaObjectToName(network), listed)
	f.Neutron.FailWith("update subnet", &neutron.Error{Op: "update subnet", Kind: neutron.KindUnavailable, Code: 503, Message: "busy"})
	if err := f.Sync(network); err == nil {
		t.Fatal("the repair succeeded against a failing Neutron")
	}
	f.Neutron.FailWith("update subnet", nil)
	if err := f.Sync(f.Refresh("default", "retried")); err != nil {
		t.Fatalf("the retry: %v", err)
	}
	if got := f.Refresh("default", "retried").Status.LastSyncTime; got == nil || !got.Time.Equal(listed) {
		t.Errorf("status.lastSyncTime = %v, want the failed pass's check, %v", got, listed)
	}
}
