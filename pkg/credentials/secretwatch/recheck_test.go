package secretwatch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
)

// apiserver stands for RBAC in front of the fake client: namespaces named closed-* have
// granted the controller nothing until open is called. It records the namespace of every
// list and watch request, in order.
type apiserver struct {
	mu       sync.Mutex
	opened   bool
	requests []string
}

func refuseClosed(client *metadatafake.FakeMetadataClient) *apiserver {
	a := &apiserver{}
	client.PrependReactor("*", "secrets", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetVerb() != "list" && action.GetVerb() != "watch" {
			return false, nil, nil
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		a.requests = append(a.requests, action.GetNamespace())
		if !a.opened && strings.HasPrefix(action.GetNamespace(), "closed-") {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, "", errors.New("no RoleBinding"))
		}
		return false, nil, nil
	})
	return a
}

func (a *apiserver) open() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opened = true
}

// sent returns the namespaces of the requests so far.
func (a *apiserver) sent() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.requests...)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(t.Context(), 5*time.Millisecond, 30*time.Second, true,
		func(context.Context) (bool, error) { return cond(), nil }); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// Namespaces that granted nothing name more Secrets than the total: their watches are
// refused and stopped, hold no place in the total, and send no further request while
// their re-check is not due; their Networks are told ErrNotGranted; a namespace that did
// grant gets its watches. A refused Secret still counts against its own namespace.
func TestRefusedWatchesHoldNoPlaceInTheTotal(t *testing.T) {
	w, client, ctx := newLimitedWatches(t, Limits{PerNamespace: 3, Total: 2}, secretMeta("creds", true), secretMeta("other", true))
	api := refuseClosed(client)
	w.first, w.most = time.Hour, time.Hour
	w.Start(ctx)
	for ns := range 3 {
		for i := range 3 {
			closed := fmt.Sprintf("closed-%d", ns)
			w.Use(cache.NewObjectName(closed, fmt.Sprintf("n%d", i)), cache.NewObjectName(closed, fmt.Sprintf("made-up-%d", i)))
		}
	}
	waitFor(t, "9 refused watches", func() bool { return w.Refused() == 9 })
	if n := w.Watched(); n != 0 {
		t.Errorf("%d watches running for namespaces that granted nothing, want 0", n)
	}
	if _, err := w.State(ctx, cache.NewObjectName("closed-0", "made-up-0")); !errors.Is(err, ErrNotGranted) {
		t.Errorf("State of a refused Secret: %v, want ErrNotGranted", err)
	}
	var over *OverLimitError
	w.Use(cache.NewObjectName("closed-0", "n3"), cache.NewObjectName("closed-0", "made-up-3"))
	if _, err := w.State(ctx, cache.NewObjectName("closed-0", "made-up-3")); !errors.As(err, &over) || !over.Namespace {
		t.Errorf("State of a fourth Secret of a namespace refusing 3: %v, want its namespace's limit", err)
	}

	w.Use(key("net"), key("creds"))
	w.Use(key("net2"), key("other"))
	for _, name := range []string{"creds", "other"} {
		if v, err := w.State(ctx, key(name)); err != nil || v != "5" {
			t.Errorf("State of %s, of the namespace that granted: %q, %v; want version 5", name, v, err)
		}
	}
	sent := len(api.sent())
	time.Sleep(2 * time.Second) // a reflector retries a refused list within about a second
	if more := api.sent()[sent:]; len(more) != 0 {
		t.Errorf("%d requests in 2 s after the refusals (%v), want none before a re-check is due", len(more), more)
	}
	t.Logf("total 2: %d watches, %d refused, %d waiting; %d list and watch requests in all", w.Watched(), w.Refused(), w.Waiting(), sent)
}

// Re-checks go one at a time at most one per rechecks.every, however many Secrets are
// refused, and namespaces take turns: a namespace's one refused Secret is asked for about
// one request after it is due, not after a flood's.
func TestRechecksTakeTurnsAtABoundedRate(t *testing.T) {
	w, client, ctx := newTestWatches(t)
	api := refuseClosed(client)
	w.every, w.first, w.most = 5*time.Millisecond, time.Millisecond, time.Millisecond
	w.Start(ctx)
	for i := range 50 {
		w.Use(cache.NewObjectName("closed-flood", fmt.Sprintf("n%d", i)), cache.NewObjectName("closed-flood", fmt.Sprintf("made-up-%d", i)))
	}
	waitFor(t, "50 refused watches", func() bool { return w.Refused() == 50 })
	start, before := time.Now(), len(api.sent())
	time.Sleep(500 * time.Millisecond)
	probes, elapsed := len(api.sent())-before, time.Since(start)
	if most := int(elapsed/w.every) + 1; probes > most || probes < 10 {
		t.Errorf("%d re-checks in %s, want between 10 and %d (one per %s)", probes, elapsed, most, w.every)
	}

	w.Use(cache.NewObjectName("closed-late", "n"), cache.NewObjectName("closed-late", "creds"))
	waitFor(t, "late's refusal and first re-check", func() bool {
		sent := api.sent()
		return w.Refused() == 51 && len(sent) > 0 && countOf(sent, "closed-late") >= 2
	})
	sent := api.sent()
	first := indexOf(sent, "closed-late", 0)
	second := indexOf(sent, "closed-late", first+1)
	if between := second - first - 1; between > 2 {
		t.Errorf("%d of the flood's re-checks between late's refusal and its re-check, want at most 2", between)
	}
	t.Logf("%d re-checks of 50 refused Secrets in %s; late's Secret re-checked after %d of the flood's",
		probes, elapsed.Round(time.Millisecond), second-first-1)
}

// A grant found by a re-check starts the watch, within the total as it is shared: the
// namespace below its share gets its first Secret watched, the next one waits.
func TestAGrantTakesAPlaceInTheTotalAsShared(t *testing.T) {
	w, client, ctx := newLimitedWatches(t, Limits{Total: 1}, secretMeta("creds", true))
	api := refuseClosed(client)
	w.every, w.first, w.most = time.Millisecond, 5*time.Millisecond, 5*time.Millisecond
	var mu sync.Mutex
	var told []cache.ObjectName
	w.OnAccessGranted(func(secret cache.ObjectName) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, secret)
	})
	w.Start(ctx)
	w.Use(key("net"), key("creds"))
	for i := range 2 {
		w.Use(cache.NewObjectName("closed-b", fmt.Sprintf("n%d", i)), cache.NewObjectName("closed-b", fmt.Sprintf("s%d", i)))
	}
	waitFor(t, "2 refused watches", func() bool { return w.Refused() == 2 })
	if n := w.Watched(); n != 1 {
		t.Fatalf("%d watches, want team-a's only", n)
	}
	api.open()
	waitFor(t, "both grants told", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(told) == 2
	})
	if n, refused, waiting := w.Watched(), w.Refused(), w.Waiting(); n != 2 || refused != 0 || waiting != 1 {
		t.Errorf("%d watches, %d refused and %d waiting after the grant, want 2, 0 and 1", n, refused, waiting)
	}
	var over *OverLimitError
	for i := range 2 {
		secret := cache.NewObjectName("closed-b", fmt.Sprintf("s%d", i))
		if _, err := w.State(ctx, secret); isWatched(w, secret) == errors.As(err, &over) {
			t.Errorf("State of %s: %v; watched: %v", secret, err, isWatched(w, secret))
		}
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func indexOf(list []string, s string, from int) int {
	for i := from; i < len(list); i++ {
		if list[i] == s {
			return i
		}
	}
	return -1
}

// A refused Secret's re-checks wait 1 s, then twice as long each time up to 30 s, each
// wait up to 10 % longer, never outside [1 s, 30 s]; two Secrets refused together come
// due apart. A backoff carried across a grant goes on from where it was.
func TestRecheckWaitsDoubleWithJitterWithinTheirBounds(t *testing.T) {
	r := defaultRechecks()
	waits := func() ([]time.Duration, wait.Backoff) {
		var b wait.Backoff
		out := make([]time.Duration, 30)
		for i := range out {
			out[i] = r.nextWait(&b)
		}
		return out, b
	}
	a, carried := waits()
	b, _ := waits()
	base := r.first
	for i, d := range a {
		if d < r.first || d > r.most {
			t.Fatalf("wait %d is %s, outside [%s, %s]: %v", i, d, r.first, r.most, a)
		}
		if base <= r.most/2 && (d < base || d > base+base/10) {
			t.Errorf("wait %d is %s, want within [%s, %s]", i, d, base, base+base/10)
		}
		base = min(2*base, r.most)
	}
	if slices.Equal(a, b) {
		t.Errorf("two Secrets' waits are equal, want jitter: %v", a)
	}
	if top := a[len(a)-10:]; slices.Min(top) == slices.Max(top) {
		t.Errorf("the last 10 waits are all %s, want them spread", top[0])
	}
	if next := r.nextWait(&carried); next < time.Duration(float64(r.most)/1.1) {
		t.Errorf("a backoff carried on waits %s, want it at the top, not back at %s", next, r.first)
	}
}
