package reconcile

import (
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/metrics"
)

func newNetwork(name, cidr string) *samplecrdv1.Network {
	h := fmt.Sprintf("%x", sha256.Sum256([]byte(name)))
	return &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault, UID: types.UID(h[:36]), Generation: 1},
		Spec:       samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}},
	}
}

// withReady returns network with a Ready condition for generation.
func withReady(network *samplecrdv1.Network, generation int64, status metav1.ConditionStatus, reason string) *samplecrdv1.Network {
	n := network.DeepCopy()
	n.Status.ObservedGeneration = generation
	setReady(&n.Status, generation, status, reason, "test")
	return n
}

func TestReadyState(t *testing.T) {
	n := newNetwork("a", "10.0.0.0/24")
	changed := withReady(n, 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned)
	changed.Generation = 2
	for _, tc := range []struct {
		name    string
		network *samplecrdv1.Network
		want    metrics.NetworkState
	}{
		{"no condition", n, metrics.NetworkState{Status: "Unknown", Reason: reasonPending}},
		{"ready", withReady(n, 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned), metrics.NetworkState{Status: "True", Reason: "Provisioned"}},
		{"failed", withReady(n, 1, metav1.ConditionFalse, samplecrdv1.ReasonNeutronUnavailable), metrics.NetworkState{Status: "False", Reason: "NeutronUnavailable"}},
		{"ready for an older generation", changed, metrics.NetworkState{Status: "Unknown", Reason: reasonPending}},
	} {
		if got := StateOf(tc.network); got != tc.want {
			t.Errorf("%s: readyState = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// fakeClock is a settable now.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestReadyClock(t *testing.T) {
	start := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: start.Add(300 * time.Millisecond)}
	r := newReadyClock(clock.now, metrics.New())
	waited := func(n *samplecrdv1.Network) (string, time.Duration, bool) {
		change, since, ok := r.waitOf(n)
		return change, clock.t.Sub(since), ok
	}

	// Seen at once: counted from when it was seen.
	live := newNetwork("live", "10.0.0.0/24")
	live.CreationTimestamp = metav1.NewTime(start)
	r.saw(live)
	clock.t = clock.t.Add(2 * time.Second)
	r.saw(live) // an update of the same generation does not restart the wait
	if change, d, ok := waited(live); !ok || change != metrics.ChangeCreate || d != 2*time.Second {
		t.Errorf("live create: waited %q %v %v, want create 2s true", change, d, ok)
	}

	// Created while no controller watched: counted from its creationTimestamp.
	late := newNetwork("late", "10.0.1.0/24")
	late.CreationTimestamp = metav1.NewTime(clock.t.Add(-time.Minute))
	r.saw(late)
	if change, d, ok := waited(late); !ok || change != metrics.ChangeCreate || d != time.Minute {
		t.Errorf("late create: waited %q %v %v, want create 1m0s true", change, d, ok)
	}

	// A spec change of a Ready Network: counted from when the new generation was seen.
	changed := withReady(newNetwork("changed", "10.0.2.0/24"), 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned)
	changed.CreationTimestamp = metav1.NewTime(start.Add(-time.Hour))
	r.saw(changed)
	if _, _, ok := r.waitOf(changed); ok {
		t.Error("a Ready Network waits")
	}
	changed.Generation = 2
	r.saw(changed)
	clock.t = clock.t.Add(500 * time.Millisecond)
	if change, d, ok := waited(changed); !ok || change != metrics.ChangeUpdate || d != 500*time.Millisecond {
		t.Errorf("update: waited %q %v %v, want update 500ms true", change, d, ok)
	}
	older := changed.DeepCopy()
	older.Generation = 1
	if _, _, ok := r.waitOf(older); ok {
		t.Error("generation 1 of a Network waiting at generation 2 was found waiting")
	}

	// Ready as delivered (the standby's view), or deleted: no wait left behind.
	for _, n := range []*samplecrdv1.Network{live, late, changed} {
		r.saw(withReady(n, n.Generation, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned))
	}
	gone := newNetwork("gone", "10.0.4.0/24")
	gone.CreationTimestamp = metav1.NewTime(clock.t)
	r.saw(gone)
	r.forget(cache.MetaObjectToName(gone))
	if len(r.waiting) != 0 {
		t.Errorf("waits left: %v, want none", r.waiting)
	}
}
