package resync

import (
	"slices"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"
)

func TestDueQueueHandsOutChecksInDueOrder(t *testing.T) {
	q := newDueQueue()
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	a, b, c := cache.ObjectName{Namespace: "ns", Name: "a"}, cache.ObjectName{Namespace: "ns", Name: "b"}, cache.ObjectName{Namespace: "ns", Name: "c"}
	q.schedule(a, t0.Add(2*time.Minute))
	q.schedule(c, t0.Add(time.Minute))
	q.schedule(b, t0.Add(time.Minute))
	if at, ok := q.next(); !ok || !at.Equal(t0.Add(time.Minute)) {
		t.Fatalf("next = %v, %v; want %v", at, ok, t0.Add(time.Minute))
	}
	if due := q.takeDue(t0); len(due) != 0 {
		t.Fatalf("due at %v: %v, want none", t0, due)
	}
	// Rescheduling replaces: a is due first now, and only once.
	q.schedule(a, t0)
	due := q.takeDue(t0.Add(time.Minute))
	if got, want := keysOf(due), []cache.ObjectName{a, b, c}; !slices.Equal(got, want) {
		t.Fatalf("due = %v, want %v (earliest first, ties by key)", got, want)
	}
	if !due[0].at.Equal(t0) || !due[1].at.Equal(t0.Add(time.Minute)) {
		t.Errorf("due times = %v, %v; want %v, %v", due[0].at, due[1].at, t0, t0.Add(time.Minute))
	}
	if n := q.len(); n != 0 {
		t.Errorf("%d checks left after taking all, want 0", n)
	}
	q.schedule(a, t0)
	q.schedule(b, t0)
	q.remove(a)
	if got := keysOf(q.takeDue(t0)); !slices.Equal(got, []cache.ObjectName{b}) {
		t.Errorf("due after removing a = %v, want [b]", got)
	}
	if _, ok := q.next(); ok {
		t.Error("next reports a check in an empty queue")
	}
}

// Networks on one period, compared with Neutron at different moments, fall due at the same
// instants (their checks share a list), never sooner than one period after their last
// comparison; one owed since before the anchor is due at once.
func TestChecksOfOnePeriodFallDueTogether(t *testing.T) {
	anchor := time.Date(2026, 12, 7, 10, 0, 7, 0, time.UTC)
	period := 10 * time.Minute
	want := anchor.Add(3 * period)
	for _, last := range []time.Duration{period + time.Second, period + 4*time.Minute, 2 * period} {
		got := nextCheckAfter(anchor.Add(last), period, anchor)
		if !got.Equal(want) {
			t.Errorf("last compared at anchor+%v: due %v, want %v", last, got, want)
		}
		if got.Sub(anchor.Add(last)) < period {
			t.Errorf("last compared at anchor+%v: due %v, sooner than one period", last, got)
		}
	}
	// A one-minute grid holds every instant of the ten-minute one: both share its lists.
	if got := nextCheckAfter(anchor.Add(9*time.Minute+30*time.Second), time.Minute, anchor); !got.Equal(anchor.Add(period + time.Minute)) {
		t.Errorf("one-minute check = %v, want %v on the shared grid", got, anchor.Add(period+time.Minute))
	}
	long := anchor.Add(-time.Hour)
	if got := nextCheckAfter(long, period, anchor); !got.Equal(long.Add(period)) {
		t.Errorf("owed since before the anchor: due %v, want %v (at once)", got, long.Add(period))
	}
}

func keysOf(due []dueCheck) []cache.ObjectName {
	keys := make([]cache.ObjectName, len(due))
	for i, d := range due {
		keys[i] = d.key
	}
	return keys
}
