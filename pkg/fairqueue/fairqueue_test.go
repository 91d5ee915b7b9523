package fairqueue

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

func key(namespace string, i int) cache.ObjectName {
	return cache.ObjectName{Namespace: namespace, Name: fmt.Sprintf("n%d", i)}
}

// add queues key for class the way the controller does: mark, then Add.
func add(q *Queue, wq workqueue.TypedInterface[cache.ObjectName], k cache.ObjectName, class Class) {
	q.Mark(k, class)
	wq.Add(k)
}

// newWorkqueue is the controller's stack: client-go's rate-limiting queue over q.
func newWorkqueue(q *Queue) workqueue.TypedRateLimitingInterface[cache.ObjectName] {
	return workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName](),
		workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{
			DelayingQueue: workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[cache.ObjectName]{
				Queue: workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[cache.ObjectName]{Queue: q}),
			}),
		})
}

// drain takes n keys, marking each done at once.
func drain(t *testing.T, wq workqueue.TypedInterface[cache.ObjectName], n int) []cache.ObjectName {
	t.Helper()
	var out []cache.ObjectName
	for range n {
		k, shutdown := wq.Get()
		if shutdown {
			t.Fatalf("queue shut down after %d of %d keys", len(out), n)
		}
		wq.Done(k)
		out = append(out, k)
	}
	return out
}

// expectOrder takes len(want) keys and compares them with want.
func expectOrder(t *testing.T, wq workqueue.TypedInterface[cache.ObjectName], why string, want ...cache.ObjectName) {
	t.Helper()
	if got := drain(t, wq, len(want)); !slices.Equal(got, want) {
		t.Fatalf("order = %v, want %s: %v", got, why, want)
	}
}

func TestNamespacesTakeTurns(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	for i := range 100 {
		add(q, wq, key("a", i), UserChange)
	}
	add(q, wq, key("b", 0), UserChange)
	add(q, wq, key("c", 0), UserChange)
	add(q, wq, key("b", 1), UserChange)

	expectOrder(t, wq, "one key of each namespace in turn",
		key("a", 0), key("b", 0), key("c", 0), key("a", 1), key("b", 1), key("a", 2))
	if n := wq.Len(); n != 97 {
		t.Fatalf("Len = %d, want the 97 keys of a left", n)
	}
}

// A namespace that gets work while another works through its backlog goes next: it joins
// the turns before the namespace that just had its turn, behind those already waiting.
func TestNamespaceJoinsBeforeTheOneJustServed(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	for i := range 10 {
		add(q, wq, key("a", i), UserChange)
	}
	expectOrder(t, wq, "a alone", key("a", 0), key("a", 1))
	add(q, wq, key("b", 0), UserChange)
	expectOrder(t, wq, "b at once, not after another of a's", key("b", 0), key("a", 2))

	for i := range 3 {
		add(q, wq, key("c", i), UserChange)
	}
	expectOrder(t, wq, "c joins before a, which was served last", key("c", 0), key("a", 3))
	// c was served before a: d joins behind c, which has waited since, and before a.
	add(q, wq, key("d", 0), UserChange)
	add(q, wq, key("e", 0), UserChange)
	expectOrder(t, wq, "c, then d and e in the order they came, then a",
		key("c", 1), key("d", 0), key("e", 0), key("a", 4), key("c", 2), key("a", 5))

	add(q, wq, key("f", 0), UserChange)
	expectOrder(t, wq, "f first (a was served last), then a", key("f", 0), key("a", 6))
	add(q, wq, key("g", 0), UserChange)
	add(q, wq, key("h", 0), UserChange)
	expectOrder(t, wq, "g, then h", key("g", 0), key("h", 0))
	// h, served last, left the turns with its only item: a newcomer goes behind a.
	add(q, wq, key("i", 0), UserChange)
	expectOrder(t, wq, "a has waited since before h's turn, so it goes before i", key("a", 7), key("i", 0))
}

func TestUserChangesGoBeforeBackgroundWork(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	add(q, wq, key("a", 0), InitialList)
	add(q, wq, key("a", 1), Resync)
	wq.Add(key("a", 2)) // no mark: a delayed add, a retry
	add(q, wq, key("a", 3), UserChange)
	add(q, wq, key("a", 4), InitialList)
	add(q, wq, key("a", 5), UserChange)

	expectOrder(t, wq, "user changes first, then the rest oldest first",
		key("a", 3), key("a", 5), key("a", 0), key("a", 1), key("a", 2), key("a", 4))
}

func TestUserChangeMovesAQueuedKeyUp(t *testing.T) {
	var observed []Class
	q := New(Options{Observe: func(c Class, _ time.Duration) { observed = append(observed, c) }})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	for i := range 3 {
		add(q, wq, key("a", i), InitialList)
	}
	add(q, wq, key("a", 2), UserChange) // edited while waiting in the initial list
	add(q, wq, key("a", 0), Resync)     // no more urgent: keeps its place and class

	expectOrder(t, wq, "the edited key first, the others in their places", key("a", 2), key("a", 0), key("a", 1))
	if wantClasses := []Class{UserChange, InitialList, InitialList}; !slices.Equal(observed, wantClasses) {
		t.Fatalf("observed classes %v, want %v", observed, wantClasses)
	}
}

func TestBackgroundWorkIsNotStarved(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	add(q, wq, key("a", 0), Resync)
	add(q, wq, key("b", 0), Resync)
	next := 0
	// Users keep the urgent level full: two new changes for every key handed out.
	var served []cache.ObjectName
	for range 40 {
		for range 2 {
			add(q, wq, key("busy", next), UserChange)
			next++
		}
		served = append(served, drain(t, wq, 1)...)
	}
	for _, bg := range []cache.ObjectName{key("a", 0), key("b", 0)} {
		i := slices.Index(served, bg)
		if i < 0 {
			t.Fatalf("%v never served in %d turns while user changes kept coming", bg, len(served))
		}
	}
	if i := slices.Index(served, key("a", 0)); i != urgentRun {
		t.Fatalf("first background key served at turn %d, want %d (after %d urgent ones)", i, urgentRun, urgentRun)
	}
	if i := slices.Index(served, key("b", 0)); i != 2*urgentRun+1 {
		t.Fatalf("second background key served at turn %d, want %d", i, 2*urgentRun+1)
	}
}

func TestFIFOIgnoresNamespacesAndClasses(t *testing.T) {
	q := New(Options{FIFO: true})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	add(q, wq, key("a", 0), InitialList)
	add(q, wq, key("a", 1), InitialList)
	add(q, wq, key("b", 0), UserChange)
	add(q, wq, key("a", 0), UserChange)

	expectOrder(t, wq, "arrival order", key("a", 0), key("a", 1), key("b", 0))
}

func TestObserveReportsClassAndWait(t *testing.T) {
	now := time.Unix(1000, 0)
	type obs struct {
		class  Class
		waited time.Duration
	}
	var got []obs
	q := New(Options{Now: func() time.Time { return now }, Observe: func(c Class, d time.Duration) { got = append(got, obs{c, d}) }})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	add(q, wq, key("a", 0), InitialList)
	now = now.Add(3 * time.Second)
	add(q, wq, key("a", 1), Resync)
	now = now.Add(2 * time.Second)
	drain(t, wq, 2)

	want := []obs{{InitialList, 5 * time.Second}, {Resync, 2 * time.Second}}
	if !slices.Equal(got, want) {
		t.Fatalf("observed %v, want %v", got, want)
	}
}

// The rest is what client-go's queue promises, kept with this Queue underneath.

func TestDuplicateAddsAreOneItem(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	for _, class := range Classes {
		add(q, wq, key("a", 0), class)
	}
	if n := wq.Len(); n != 1 {
		t.Fatalf("Len = %d after adding one key four times, want 1", n)
	}
	k, _ := wq.Get()
	// Added while a worker holds it: queued again once the worker is done, not before.
	add(q, wq, k, Resync)
	add(q, wq, k, UserChange)
	if n := wq.Len(); n != 0 {
		t.Fatalf("Len = %d while the only key is processing, want 0", n)
	}
	wq.Done(k)
	if n := wq.Len(); n != 1 {
		t.Fatalf("Len = %d after Done of a key added meanwhile, want 1", n)
	}
	add(q, wq, key("a", 1), InitialList)
	expectOrder(t, wq, "the re-added key first: its mark was a user change", key("a", 0), key("a", 1))
	if n := q.Len(); n != 0 || len(q.hints) != 0 {
		t.Fatalf("left %d items and %d hints behind", n, len(q.hints))
	}
}

func TestRateLimitedAddsComeBackAsRetries(t *testing.T) {
	var mu sync.Mutex
	var classes []Class
	q := New(Options{Observe: func(c Class, _ time.Duration) { mu.Lock(); classes = append(classes, c); mu.Unlock() }})
	wq := newWorkqueue(q)
	defer wq.ShutDown()
	wq.AddAfter(key("a", 0), time.Millisecond)
	drain(t, wq, 1)
	if !slices.Equal(classes, []Class{Retry}) {
		t.Fatalf("classes %v, want [retry]", classes)
	}
}

func TestShutDownReleasesWaitingWorkers(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	done := make(chan bool)
	go func() {
		_, shutdown := wq.Get()
		done <- shutdown
	}()
	wq.ShutDown()
	select {
	case shutdown := <-done:
		if !shutdown {
			t.Fatal("Get returned an item from an empty queue")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Get still blocked after ShutDown")
	}
	add(q, wq, key("a", 0), UserChange)
	if n := wq.Len(); n != 0 {
		t.Fatalf("Len = %d after an Add on a shut down queue, want 0", n)
	}
}

func TestShutDownWithDrainWaitsForItemsInFlight(t *testing.T) {
	q := New(Options{})
	wq := newWorkqueue(q)
	add(q, wq, key("a", 0), UserChange)
	k, _ := wq.Get()
	drained := make(chan struct{})
	go func() {
		wq.ShutDownWithDrain()
		close(drained)
	}()
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while an item was in flight")
	case <-time.After(100 * time.Millisecond):
	}
	wq.Done(k)
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
		t.Fatal("ShutDownWithDrain still waiting after the item was done")
	}
}

// After an initial list of thousands of keys drains, the queue's maps are made anew
// rather than keeping the memory of their largest size; small ones are kept.
func TestDrainedQueueReleasesItsGrownMaps(t *testing.T) {
	q := New(Options{})
	small := reflect.ValueOf(q.items).UnsafePointer()
	q.Mark(key("a", 0), UserChange)
	q.Push(key("a", 0))
	q.Pop()
	if reflect.ValueOf(q.items).UnsafePointer() != small {
		t.Error("a map that never grew past the threshold was made anew")
	}

	for i := range releaseAbove + 1 {
		q.Mark(key("a", i), InitialList)
	}
	for i := range releaseAbove + 1 {
		q.Push(key("a", i))
	}
	grown := reflect.ValueOf(q.items).UnsafePointer()
	for q.Len() > 0 {
		q.Pop()
	}
	if reflect.ValueOf(q.items).UnsafePointer() == grown || q.itemsPeak != 0 || q.hintsPeak != 0 || len(q.hints) != 0 {
		t.Errorf("after draining %d keys: items map kept (%v), peaks %d and %d", releaseAbove+1,
			reflect.ValueOf(q.items).UnsafePointer() == grown, q.itemsPeak, q.hintsPeak)
	}
	q.Mark(key("b", 0), UserChange)
	q.Push(key("b", 0))
	if got := q.Pop(); got != key("b", 0) {
		t.Errorf("after the release, Pop = %v, want b/n0", got)
	}
}
