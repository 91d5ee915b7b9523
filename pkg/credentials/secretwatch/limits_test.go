package secretwatch

import (
	"errors"
	"fmt"
	"testing"

	"k8s.io/client-go/tools/cache"
)

// A namespace's Networks naming a thousand made-up Secrets get PerNamespace watches; the
// others wait with ErrOverLimit, and another namespace is not held by them.
func TestWatchesAreBoundedPerNamespace(t *testing.T) {
	w, _, ctx := newLimitedWatches(t, Limits{PerNamespace: 2, Total: 10})
	w.Start(ctx)
	for i := range 1000 {
		w.Use(cache.NewObjectName("flood", fmt.Sprintf("n%d", i)), cache.NewObjectName("flood", fmt.Sprintf("made-up-%d", i)))
	}
	if n, waiting := w.Watched(), w.Waiting(); n != 2 || waiting != 998 {
		t.Fatalf("%d watches and %d Secrets waiting, want 2 and 998", n, waiting)
	}
	var over *OverLimitError
	if _, err := w.State(ctx, cache.NewObjectName("flood", "made-up-999")); !errors.As(err, &over) || !over.Namespace || over.Limit != 2 {
		t.Errorf("State of a Secret over the limit: %v, want the namespace's limit of 2", err)
	}
	w.Use(key("net"), key("creds"))
	if n := w.Watched(); n != 3 {
		t.Errorf("%d watches, want another namespace's Secret watched too", n)
	}
	// A ClusterIdentity's Secret is the operator's: not counted.
	w.Use(cache.ObjectName{Name: "identity"}, cache.NewObjectName("flood", "identity-secret"))
	if n := w.Watched(); n != 4 {
		t.Errorf("%d watches, want the identity's Secret watched whatever the limits", n)
	}

	// A Network stops naming its Secret: a waiting one gets the watch.
	w.Use(cache.NewObjectName("flood", "n0"), cache.ObjectName{})
	if n, waiting := w.Watched(), w.Waiting(); n != 4 || waiting != 997 {
		t.Errorf("%d watches and %d waiting after one was released, want 4 and 997", n, waiting)
	}
	for i := range 1000 {
		w.Use(cache.NewObjectName("flood", fmt.Sprintf("n%d", i)), cache.ObjectName{})
	}
	if n, waiting := w.Watched(), w.Waiting(); n != 2 || waiting != 0 {
		t.Errorf("%d watches and %d waiting once the flood is gone, want 2 and 0", n, waiting)
	}
}

// The total is shared: once it is reached, a namespace below its fair share (the total
// divided by the namespaces holding watches) still gets a watch, one at or above it
// waits, and past twice the total every Secret waits. A place freed goes to the namespace
// holding the fewest watches.
func TestWatchesAreBoundedInAll(t *testing.T) {
	w, _, ctx := newLimitedWatches(t, Limits{Total: 4})
	w.Start(ctx)
	name := func(ns string, i int) cache.ObjectName { return cache.NewObjectName(ns, fmt.Sprintf("s%d", i)) }
	use := func(ns string, n int) {
		for i := range n {
			w.Use(cache.NewObjectName(ns, fmt.Sprintf("n%d", i)), name(ns, i))
		}
	}
	over := func(secret cache.ObjectName) *OverLimitError {
		var over *OverLimitError
		if _, err := w.State(ctx, secret); !errors.As(err, &over) {
			t.Fatalf("State of %s: %v, want ErrOverLimit", secret, err)
		}
		return over
	}

	use("hog", 10)
	if n, waiting := w.Watched(), w.Waiting(); n != 4 || waiting != 6 {
		t.Fatalf("%d watches and %d waiting, want the total of 4 and 6", n, waiting)
	}
	if e := over(name("hog", 9)); e.Namespace || e.Ceiling || e.Limit != 4 || e.Share != 4 {
		t.Errorf("hog's fifth Secret: %+v, want over the total of 4, its share 4", e)
	}
	use("team", 3) // 2 namespaces: a share of 2
	if e := over(name("team", 2)); e.Share != 2 || e.Ceiling {
		t.Errorf("team's third Secret: %+v, want its share of 2 reached", e)
	}
	use("late", 1) // shares of 1 from here on
	use("later", 1)
	if n := w.Watched(); n != 8 {
		t.Fatalf("%d watches, want 8: 4 of hog, 2 of team, 1 each of late and later", n)
	}
	use("latest", 1)
	if e := over(name("latest", 0)); !e.Ceiling {
		t.Errorf("latest's first Secret: %+v, want twice the total reached", e)
	}
	t.Logf("total 4: hog holds 4, team 2, late 1, later 1; latest waits: %v", over(name("latest", 0)))

	w.Use(cache.NewObjectName("hog", "n0"), cache.ObjectName{})
	if n, waiting := w.Watched(), w.Waiting(); n != 8 || waiting != 6+1 {
		t.Errorf("%d watches and %d waiting after hog released one, want 8 and 7", n, waiting)
	}
	if !isWatched(w, name("latest", 0)) {
		t.Error("the place hog freed did not go to latest, which held none")
	}
	for _, ns := range []string{"hog", "team", "late", "later", "latest"} {
		for i := range 10 {
			w.Use(cache.NewObjectName(ns, fmt.Sprintf("n%d", i)), cache.ObjectName{})
		}
	}
	if n, waiting := w.Watched(), w.Waiting(); n != 0 || waiting != 0 {
		t.Errorf("%d watches and %d waiting once no Network names a Secret, want none", n, waiting)
	}
}

// The flood: 63 namespaces each name 32 made-up Secrets, more than the total of
// 2,000. A new team's first Secret still gets its watch, and so does the new name of a
// rotation while Networks still name the old one.
func TestANamespaceBelowItsShareGetsItsWatch(t *testing.T) {
	w, _, _ := newLimitedWatches(t, Limits{PerNamespace: 32, Total: 2000})
	for ns := range 63 {
		for i := range 32 {
			w.Use(cache.NewObjectName(fmt.Sprintf("flood-%d", ns), fmt.Sprintf("n%d", i)), cache.NewObjectName(fmt.Sprintf("flood-%d", ns), fmt.Sprintf("made-up-%d", i)))
		}
	}
	// 62 namespaces of 32 reach 1,984; the 63rd gets 16 to the total, then up to its
	// share of 2000/63 = 31.
	if n, waiting := w.Watched(), w.Waiting(); n != 62*32+31 || waiting != 1 {
		t.Fatalf("%d watches and %d waiting, want %d and 1", n, waiting, 62*32+31)
	}
	team := func(name string) cache.ObjectName { return cache.NewObjectName("team", name) }
	w.Use(team("a"), team("creds"))
	w.Use(team("b"), team("creds"))
	w.Use(team("a"), team("creds-v2"))
	for _, secret := range []cache.ObjectName{team("creds"), team("creds-v2")} {
		if !isWatched(w, secret) {
			t.Errorf("%s is not watched", secret)
		}
	}
	w.Use(team("b"), team("creds-v2"))
	if n := w.Watched(); n != 62*32+31+1 || isWatched(w, team("creds")) {
		t.Errorf("%d watches, want %d: the old name released", n, 62*32+31+1)
	}
	t.Logf("63 flooding namespaces: %d watches for a total of 2000; the new team's Secret and its rotation were watched", w.Watched())
}

// However many namespaces flood, the watches stay within twice the total.
func TestTheSharedTotalNeverPassesTwice(t *testing.T) {
	w, _, _ := newLimitedWatches(t, Limits{PerNamespace: 4, Total: 8})
	for ns := range 100 {
		for i := range 10 {
			w.Use(cache.NewObjectName(fmt.Sprintf("ns-%02d", ns), fmt.Sprintf("n%d", i)), cache.NewObjectName(fmt.Sprintf("ns-%02d", ns), fmt.Sprintf("s%d", i)))
		}
	}
	// 4+4 reach the total; then shares of 8/3 = 2, 2, 8/5 = 1, 1, 1, 1 reach 16.
	if n := w.Watched(); n != 16 {
		t.Errorf("%d watches, want 16, twice the total", n)
	}
}

func isWatched(w *Watches, secret cache.ObjectName) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	wt := w.watches[secret]
	return wt != nil && !wt.refused
}
