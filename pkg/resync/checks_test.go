package resync

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/networktest"
)

// The checks falling due together list their project once, however many Networks and
// whatever their periods; a check not due yet is left; a list made at or after a check's
// due time serves it without another. Each Network checked is queued, and its pass
// records the list's time in status.lastSyncTime.
func TestChecksFallingDueTogetherShareOneListPerProject(t *testing.T) {
	a, b, later := networktest.NewNetwork("a", "10.60.0.0/24", ""), networktest.NewNetwork("b", "10.60.1.0/24", ""), networktest.NewNetwork("later", "10.60.2.0/24", "")
	b.Spec.DriftCheck = &samplecrdv1.DriftCheck{Period: &metav1.Duration{Duration: 10 * time.Minute}}
	f := newFixture(t, a, b, later)
	f.StartLeading()
	for _, n := range []*samplecrdv1.Network{a, b, later} {
		if err := f.Sync(n); err != nil {
			t.Fatalf("sync %s: %v", n.Name, err)
		}
	}
	f.Neutron.ClearCalls()
	due := time.Now()
	f.resync.due.schedule(cache.MetaObjectToName(a), due)
	f.resync.due.schedule(cache.MetaObjectToName(b), due)
	f.resync.due.schedule(cache.MetaObjectToName(later), due.Add(time.Hour))

	if listed := f.resync.CheckDue(f.Ctx, due); listed != 1 {
		t.Errorf("projects listed = %d, want 1", listed)
	}
	if got, want := f.Neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q: one list of the project for both checks", got, want)
	}
	if got, want := f.queued, []cache.ObjectName{cache.MetaObjectToName(a), cache.MetaObjectToName(b)}; !slices.Equal(got, want) {
		t.Errorf("queued = %v, want %v (later is not due)", got, want)
	}
	store, _, _ := f.Tenants.CachedFor(cache.MetaObjectToName(a), true)
	listedAt := metav1.NewTime(store.FilledAt()).Rfc3339Copy()
	f.drain()
	for _, name := range []string{"a", "b"} {
		if got := f.Refresh("default", name).Status.LastSyncTime; got == nil || !got.Equal(&listedAt) {
			t.Errorf("%s: status.lastSyncTime = %v, want the list's time %v", name, got, listedAt)
		}
	}
	if got := f.Neutron.Calls(); len(got) != 2 {
		t.Errorf("Neutron calls after the passes = %q: a check that finds no drift costs its list only", got)
	}

	// Each is due again about one period after the list it was compared with, on its grid.
	for key, period := range map[cache.ObjectName]time.Duration{cache.MetaObjectToName(a): time.Minute, cache.MetaObjectToName(b): 10 * time.Minute} {
		next := f.resync.due.byKey[key].at
		if after := next.Sub(store.FilledAt()); after < period/2 || after > period+period/2 || next.Sub(f.resync.anchor)%period != 0 {
			t.Errorf("%s due again at %v, want an instant of its %v grid about one period after the list at %v", key, next, period, store.FilledAt())
		}
	}

	// A paused Network is not compared: due again one period on, not at once (its last
	// comparison is as old as before, and would make it due again and again).
	paused := f.Refresh("default", "later")
	paused.Annotations = map[string]string{samplecrdv1.AnnotationReconcile: samplecrdv1.ReconcilePaused}
	paused.Status.LastSyncTime = &metav1.Time{Time: store.FilledAt().Add(-time.Hour)}
	f.Put(paused)
	f.queued = nil
	owed := store.FilledAt().Add(-time.Hour)
	f.resync.due.schedule(cache.MetaObjectToName(paused), owed)
	if listed := f.resync.CheckDue(f.Ctx, store.FilledAt()); listed != 0 || len(f.queued) != 0 {
		t.Errorf("a paused Network's check: listed %d, queued %v; want neither", listed, f.queued)
	}
	if next, ok := f.resync.due.next(); !ok || !next.After(store.FilledAt()) {
		t.Errorf("a paused Network's check is due again at %v (%v), want after %v", next, ok, store.FilledAt())
	}
	paused.Annotations = nil
	f.Put(paused)

	// Due before the store's last list: served by it.
	f.Neutron.ClearCalls()
	f.queued = nil
	f.resync.due.schedule(cache.MetaObjectToName(later), store.FilledAt())
	if listed := f.resync.CheckDue(f.Ctx, store.FilledAt()); listed != 0 || len(f.Neutron.Calls()) != 0 || len(f.queued) != 1 {
		t.Errorf("a check due before the last list: listed %d, calls %q, queued %v; want 0, none, [later]", listed, f.Neutron.Calls(), f.queued)
	}
}
