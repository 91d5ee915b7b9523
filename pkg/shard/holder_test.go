package shard

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"
	k8stesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"
)

// recordedWork notes, in one timeline for every replica, when each replica's work of a
// shard started and stopped, and when it was told a shard was lost.
type recordedWork struct {
	who      string
	timeline *timeline

	mu   sync.Mutex
	lost []Shard
}

type timeline struct {
	mu     sync.Mutex
	events []string
}

func (t *timeline) add(e string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, e)
}

func (t *timeline) all() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.events)
}

func (w *recordedWork) Start(_ context.Context, s Shard) error {
	w.timeline.add(w.who + " start " + s.String())
	return nil
}

func (w *recordedWork) Stop(_ context.Context, s Shard) {
	w.timeline.add(w.who + " stop " + s.String())
}

func (w *recordedWork) Lost(s Shard) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lost = append(w.lost, s)
	w.timeline.add(w.who + " lost " + s.String())
}

func (w *recordedWork) lostShards() []Shard {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.lost)
}

// eventually waits for cond: what a Holder does when its clock is stepped runs on
// goroutines of its own.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// leaseClient is a fake clientset that versions Leases as the apiserver does: each write
// gets a new resourceVersion, and an update naming another than the stored one conflicts.
func leaseClient() *fake.Clientset {
	client := fake.NewClientset()
	leases := schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}
	version := 0
	client.PrependReactor("create", "leases", func(action k8stesting.Action) (bool, runtime.Object, error) {
		version++
		action.(k8stesting.CreateAction).GetObject().(*coordinationv1.Lease).ResourceVersion = strconv.Itoa(version)
		return false, nil, nil
	})
	client.PrependReactor("update", "leases", func(action k8stesting.Action) (bool, runtime.Object, error) {
		lease := action.(k8stesting.UpdateAction).GetObject().(*coordinationv1.Lease)
		stored, err := client.Tracker().Get(leases, lease.Namespace, lease.Name)
		if err != nil {
			return true, nil, err
		}
		if stored.(*coordinationv1.Lease).ResourceVersion != lease.ResourceVersion {
			return true, nil, apierrors.NewConflict(leases.GroupResource(), lease.Name, fmt.Errorf("stale resourceVersion"))
		}
		version++
		lease.ResourceVersion = strconv.Itoa(version)
		return false, nil, nil
	})
	return client
}

type replica struct {
	holder *Holder
	work   *recordedWork
}

// The replicas' Lease timings, the controller's defaults.
const (
	leaseDuration = 15 * time.Second
	renewDeadline = 10 * time.Second
	retryPeriod   = 2 * time.Second
)

func newReplica(client *fake.Clientset, clock *clocktesting.FakeClock, t *timeline, who string, shards int) replica {
	w := &recordedWork{who: who, timeline: t}
	h := NewHolder(Config{Namespace: "system", Name: "network-controller", Shards: shards, Identity: who, FieldManager: "test",
		LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod, Clock: clock}, client.CoordinationV1(), w)
	return replica{holder: h, work: w}
}

// tick looks at the Leases once (twice at the first: the first look only announces the
// replica) and waits for the work it started or stopped.
func (r replica) tick(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	if !r.holder.announced {
		r.holder.tick(ctx, ctx)
	}
	r.holder.tick(ctx, ctx)
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.holder.mu.Lock()
		settling := false
		for _, held := range r.holder.held {
			settling = settling || held.settling()
		}
		r.holder.mu.Unlock()
		if !settling {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the shards' work did not settle")
		}
		time.Sleep(time.Millisecond)
	}
}

func indexes(shards []Shard) []int {
	var out []int
	for _, s := range shards {
		out = append(out, s.Index)
	}
	return out
}

// Two replicas share four shards: the first takes them all, gives two up once the
// second shows, and the second takes each only after the first's work of it stopped;
// when the first stops renewing without a word, it gives its shards up at its renew
// deadline, and the second takes them only once their Leases lapse, after that.
func TestShardHandover(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a, b := newReplica(client, clock, tl, "a", 4), newReplica(client, clock, tl, "b", 4)

	a.tick(t)
	if got := indexes(a.holder.Held()); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("a alone holds %v, want every shard", got)
	}
	for range 6 {
		clock.Step(2 * time.Second)
		b.tick(t)
		a.tick(t)
	}
	heldA, heldB := indexes(a.holder.Held()), indexes(b.holder.Held())
	if len(heldA) != 2 || len(heldB) != 2 || slices.ContainsFunc(heldA, func(i int) bool { return slices.Contains(heldB, i) }) {
		t.Fatalf("a holds %v and b %v: want two each, none in both", heldA, heldB)
	}
	events := tl.all()
	for _, i := range heldB {
		stop, start := slices.Index(events, fmt.Sprintf("a stop %d/4", i)), slices.Index(events, fmt.Sprintf("b start %d/4", i))
		if stop < 0 || start < stop {
			t.Fatalf("b started shard %d before a stopped it: %v", i, events)
		}
	}

	if lost := a.work.lostShards(); len(lost) != 0 {
		t.Fatalf("a lost %v while it renewed", lost)
	}

	// a renews no more, nor releases. b waits for the Leases to lapse on its own clock.
	lastRenewal := clock.Now()
	clock.Step(2 * time.Second)
	b.tick(t)
	if got := indexes(b.holder.Held()); !slices.Equal(got, heldB) {
		t.Fatalf("b took %v before a's Leases lapsed", got)
	}
	for range 9 {
		clock.Step(2 * time.Second)
		if clock.Since(lastRenewal) >= renewDeadline {
			eventually(t, "a gives its shards up at its renew deadline", func() bool { return len(a.work.lostShards()) == len(heldA) })
		}
		b.tick(t)
	}
	if got := indexes(b.holder.Held()); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("b holds %v once a's Leases lapsed, want every shard", got)
	}
	events = tl.all()
	for _, i := range heldA {
		lost, start := slices.Index(events, fmt.Sprintf("a lost %d/4", i)), slices.Index(events, fmt.Sprintf("b start %d/4", i))
		if lost < 0 || start < lost {
			t.Fatalf("b started shard %d before a gave it up: %v", i, events)
		}
	}
	if lost := b.work.lostShards(); len(lost) != 0 {
		t.Fatalf("b lost %v", lost)
	}
}

// A replica that stops releases its shards after their work stopped and deletes its own
// Lease, so that another takes them at its next look, not a Lease duration later.
func TestShardsReleasedOnStop(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a, b := newReplica(client, clock, tl, "a", 2), newReplica(client, clock, tl, "b", 2)
	a.tick(t)
	b.tick(t)
	a.holder.stopAll(context.Background())
	if got := tl.all(); !slices.Equal(got, []string{"a start 0/2", "a start 1/2", "a stop 0/2", "a stop 1/2"}) &&
		!slices.Equal(got, []string{"a start 0/2", "a start 1/2", "a stop 1/2", "a stop 0/2"}) &&
		!slices.Equal(got, []string{"a start 1/2", "a start 0/2", "a stop 0/2", "a stop 1/2"}) &&
		!slices.Equal(got, []string{"a start 1/2", "a start 0/2", "a stop 1/2", "a stop 0/2"}) {
		t.Fatalf("timeline %v", got)
	}
	leases, err := client.CoordinationV1().Leases("system").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range leases.Items {
		if holderOf(&l) == "a" {
			t.Fatalf("Lease %s still names a after it stopped", l.Name)
		}
	}
	clock.Step(time.Second)
	b.tick(t)
	if got := indexes(b.holder.Held()); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("b holds %v right after a stopped, want both", got)
	}
}

// A Lease taken by another replica (an update at a version this one did not read) is
// lost at once; one this replica cannot reach is lost after the renew deadline.
func TestShardLost(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a := newReplica(client, clock, tl, "a", 1)
	a.tick(t)
	lease, err := client.CoordinationV1().Leases("system").Get(context.Background(), "network-controller-shard-0-of-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lease.Spec.HolderIdentity = ptr("intruder")
	if _, err := client.CoordinationV1().Leases("system").Update(context.Background(), lease, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	clock.Step(2 * time.Second)
	a.tick(t)
	if lost := a.work.lostShards(); !slices.Equal(lost, []Shard{{0, 1}}) {
		t.Fatalf("lost %v, want shard 0/1", lost)
	}

	b := newReplica(leaseClient(), clock, tl, "b", 1)
	b.tick(t)
	failing := true
	b.holder.leases = failingLeases{LeaseInterface: b.holder.leases, failing: &failing}
	for range 4 {
		clock.Step(2 * time.Second)
		b.tick(t)
	}
	if lost := b.work.lostShards(); len(lost) != 0 {
		t.Fatalf("lost %v within the renew deadline", lost)
	}
	clock.Step(2 * time.Second)
	b.tick(t)
	if lost := b.work.lostShards(); !slices.Equal(lost, []Shard{{0, 1}}) {
		t.Fatalf("lost %v after the renew deadline, want shard 0/1", lost)
	}
}

// Live Leases of another number of shards keep a replica from taking any: their ranges
// cut the namespaces differently.
func TestShardsWaitForAnotherShardCount(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	old, next := newReplica(client, clock, tl, "old", 2), newReplica(client, clock, tl, "new", 3)
	old.tick(t)
	next.tick(t)
	if got := next.holder.Held(); len(got) != 0 {
		t.Fatalf("a replica of 3 shards took %v while 2-shard Leases are live", got)
	}
	old.holder.stopAll(context.Background())
	clock.Step(2 * time.Second)
	next.tick(t)
	if got := indexes(next.holder.Held()); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("holds %v once the 2-shard Leases were released, want all three", got)
	}
}

// failingLeases fails every write and list while *failing: an apiserver out of reach.
type failingLeases struct {
	coordinationclient.LeaseInterface
	failing *bool
}

func (f failingLeases) List(ctx context.Context, opts metav1.ListOptions) (*coordinationv1.LeaseList, error) {
	if *f.failing {
		return nil, fmt.Errorf("connection refused")
	}
	return f.LeaseInterface.List(ctx, opts)
}

func (f failingLeases) Update(ctx context.Context, l *coordinationv1.Lease, opts metav1.UpdateOptions) (*coordinationv1.Lease, error) {
	if *f.failing {
		return nil, fmt.Errorf("connection refused")
	}
	return f.LeaseInterface.Update(ctx, l, opts)
}

// Replicas that start together see each other before they plan: each takes its share at
// once, and none takes a shard only to give it up.
func TestReplicasStartingTogetherTakeTheirShareAtOnce(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a, b := newReplica(client, clock, tl, "a", 4), newReplica(client, clock, tl, "b", 4)
	ctx := context.Background()
	a.holder.tick(ctx, ctx)
	b.holder.tick(ctx, ctx)
	if len(a.holder.Held())+len(b.holder.Held()) != 0 {
		t.Fatal("a replica took shards at its first look")
	}
	a.tick(t)
	b.tick(t)
	if got, want := [][]int{indexes(a.holder.Held()), indexes(b.holder.Held())}, [][]int{{0, 2}, {1, 3}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("holdings %v, want %v", got, want)
	}
	for _, e := range tl.all() {
		if strings.Contains(e, "stop") {
			t.Fatalf("a shard was given up: %v", tl.all())
		}
	}
}
