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
// instants (their checks share a list), never sooner than half a period after their last
// comparison; one compared just after an instant (the list, lastSyncTime's whole seconds)
// is due one period after that instant, not two; one owed since before the anchor is due
// at once.
func TestChecksOfOnePeriodFallDueTogether(t *testing.T) {
	anchor := time.Date(2026, 12, 7, 10, 0, 7, 0, time.UTC)
	period := 10 * time.Minute
	for _, tc := range []struct{ last, want time.Duration }{
		{period + time.Second, 2 * period},
		{period + 4*time.Minute, 2 * period},
		{period + 6*time.Minute, 3 * period},
		{2 * period, 3 * period},
	} {
		got := nextCheckAfter(anchor.Add(tc.last), period, anchor)
		if !got.Equal(anchor.Add(tc.want)) {
			t.Errorf("last compared at anchor+%v: due %v, want anchor+%v", tc.last, got, tc.want)
		}
		if got.Sub(anchor.Add(tc.last)) < period/2 {
			t.Errorf("last compared at anchor+%v: due %v, sooner than half a period", tc.last, got)
		}
	}
	// A one-minute grid holds every instant of the ten-minute one: both share its lists.
	if got := nextCheckAfter(anchor.Add(9*time.Minute+20*time.Second), time.Minute, anchor); !got.Equal(anchor.Add(period)) {
		t.Errorf("one-minute check = %v, want %v on the shared grid", got, anchor.Add(period))
	}
	// Compared at the start, before the first instant: due at the first instant, not sooner.
	if got := nextCheckAfter(anchor.Add(time.Second), period, anchor); !got.Equal(anchor.Add(period)) {
		t.Errorf("compared at the start: due %v, want %v", got, anchor.Add(period))
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
