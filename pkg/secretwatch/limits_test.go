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

// The total bounds the watches of all namespaces together.
func TestWatchesAreBoundedInAll(t *testing.T) {
	w, _, ctx := newLimitedWatches(t, Limits{Total: 3})
	w.Start(ctx)
	for i := range 4 {
		ns := fmt.Sprintf("ns-%d", i)
		w.Use(cache.NewObjectName(ns, "n"), cache.NewObjectName(ns, "s"))
	}
	var over *OverLimitError
	if _, err := w.State(ctx, cache.NewObjectName("ns-3", "s")); !errors.As(err, &over) || over.Namespace || over.Limit != 3 {
		t.Errorf("State of the fourth namespace's Secret: %v, want the total of 3", err)
	}
	w.Use(cache.NewObjectName("ns-0", "n"), cache.ObjectName{})
	if _, err := w.State(ctx, cache.NewObjectName("ns-3", "s")); errors.Is(err, ErrOverLimit) {
		t.Errorf("State once a watch was released: %v, want the Secret watched", err)
	}
	if n := w.Watched(); n != 3 {
		t.Errorf("%d watches, want 3", n)
	}
}
