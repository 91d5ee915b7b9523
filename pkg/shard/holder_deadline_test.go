package shard

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

// hungLeases is an apiserver that answers no Lease call while it hangs: each call blocks
// until its context ends (a stubborn one until the test ends, whatever its context), and
// is sent on calls as it starts.
type hungLeases struct {
	coordinationclient.LeaseInterface
	stubborn bool
	release  chan struct{}
	calls    chan context.Context

	mu sync.Mutex
	// hangs is how many calls still hang; negative: all of them.
	hangs int
}

func hang(t *testing.T, r replica, hangs int, stubborn bool) *hungLeases {
	h := &hungLeases{LeaseInterface: r.holder.leases, stubborn: stubborn, release: make(chan struct{}), calls: make(chan context.Context, 100), hangs: hangs}
	t.Cleanup(func() { close(h.release) })
	r.holder.leases = h
	return h
}

func (h *hungLeases) setHangs(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hangs = n
}

// hang reports whether the call hung, and then its error.
func (h *hungLeases) hang(ctx context.Context) (bool, error) {
	h.mu.Lock()
	hangs := h.hangs
	if h.hangs > 0 {
		h.hangs--
	}
	h.mu.Unlock()
	if hangs == 0 {
		return false, nil
	}
	h.calls <- ctx
	if h.stubborn {
		<-h.release
		return true, errors.New("the apiserver never answered")
	}
	<-ctx.Done()
	return true, ctx.Err()
}

func (h *hungLeases) Get(ctx context.Context, name string, opts metav1.GetOptions) (*coordinationv1.Lease, error) {
	if hung, err := h.hang(ctx); hung {
		return nil, err
	}
	return h.LeaseInterface.Get(ctx, name, opts)
}

func (h *hungLeases) List(ctx context.Context, opts metav1.ListOptions) (*coordinationv1.LeaseList, error) {
	if hung, err := h.hang(ctx); hung {
		return nil, err
	}
	return h.LeaseInterface.List(ctx, opts)
}

func (h *hungLeases) Create(ctx context.Context, l *coordinationv1.Lease, opts metav1.CreateOptions) (*coordinationv1.Lease, error) {
	if hung, err := h.hang(ctx); hung {
		return nil, err
	}
	return h.LeaseInterface.Create(ctx, l, opts)
}

func (h *hungLeases) Update(ctx context.Context, l *coordinationv1.Lease, opts metav1.UpdateOptions) (*coordinationv1.Lease, error) {
	if hung, err := h.hang(ctx); hung {
		return nil, err
	}
	return h.LeaseInterface.Update(ctx, l, opts)
}

func (h *hungLeases) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	if hung, err := h.hang(ctx); hung {
		return err
	}
	return h.LeaseInterface.Delete(ctx, name, opts)
}

// lookAsync starts one look of r at the Leases; the channel closes when it returns.
func lookAsync(r replica) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx := context.Background()
		r.holder.tick(ctx, ctx)
	}()
	return done
}

// endByDeadline steps the clock until the hung call of ctx ends, and fails the test
// unless that is within the renew deadline, by a deadline the transport sees too.
func endByDeadline(t *testing.T, clock *clocktesting.FakeClock, ctx context.Context) {
	t.Helper()
	if d, ok := ctx.Deadline(); !ok || time.Until(d) >= renewDeadline {
		t.Fatalf("a Lease call was made without a deadline within the renew deadline of %v (deadline %v, set %v)", renewDeadline, d, ok)
	}
	began := clock.Now()
	for ctx.Err() == nil {
		if clock.Since(began) >= renewDeadline {
			t.Fatalf("a hung Lease call still waits %v after it began", clock.Since(began))
		}
		clock.Step(100 * time.Millisecond)
	}
}

// (a) Every Lease call of a look ends by its deadline, shorter than the renew deadline,
// however long the apiserver takes: the renewal and the list here.
func TestHungLeaseCallsEndByTheirDeadline(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a := newReplica(client, clock, tl, "a", 1)
	a.tick(t)
	hung := hang(t, a, -1, false)
	clock.Step(retryPeriod)
	done := lookAsync(a)
	calls := 0
	for {
		select {
		case ctx := <-hung.calls:
			calls++
			endByDeadline(t, clock, ctx)
		case <-done:
			if calls < 2 {
				t.Fatalf("the look made %d Lease calls, want the renewal and the list", calls)
			}
			return
		case <-time.After(10 * time.Second):
			t.Fatalf("the look neither returned nor made another Lease call after %d calls", calls)
		}
	}
}

// (b) A replica whose Lease calls hang gives its shard up at the renew deadline after its
// last confirmed renewal, before the Lease lapses for the replica that takes it next.
func TestHungLeaseCallsGiveTheShardUpBeforeItLapses(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a, b := newReplica(client, clock, tl, "a", 1), newReplica(client, clock, tl, "b", 1)
	a.tick(t)
	b.tick(t)
	lastRenewal := clock.Now()
	hang(t, a, -1, false)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		a.holder.Run(ctx)
	}()
	defer func() {
		cancel()
		for range 10_000 {
			select {
			case <-ran:
				return
			case <-time.After(time.Millisecond):
				clock.Step(100 * time.Millisecond) // for the Lease calls of a's shutdown to end
			}
		}
		t.Error("a's Run did not return after its context ended")
	}()

	for clock.Since(lastRenewal) < leaseDuration+retryPeriod {
		clock.Step(500 * time.Millisecond)
		if clock.Since(lastRenewal) == renewDeadline {
			eventually(t, "a gives shard 0/1 up at its renew deadline, its Lease calls hung", func() bool { return len(a.work.lostShards()) == 1 })
		}
		if clock.Since(lastRenewal)%retryPeriod == 0 {
			b.tick(t)
		}
	}
	if got := indexes(b.holder.Held()); !slices.Equal(got, []int{0}) {
		t.Fatalf("b holds %v once a's Lease lapsed, want shard 0", got)
	}
	events := tl.all()
	lost, start := slices.Index(events, "a lost 0/1"), slices.Index(events, "b start 0/1")
	if lost < 0 || start < lost {
		t.Fatalf("b started shard 0/1 before a gave it up: %v", events)
	}
}

// The renew deadline does not wait for a call, not even one that outlives its context.
func TestRenewDeadlineDoesNotWaitForAHungCall(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a := newReplica(client, clock, tl, "a", 1)
	a.tick(t)
	lastRenewal := clock.Now()
	hung := hang(t, a, -1, true)
	clock.Step(retryPeriod)
	done := lookAsync(a)
	select {
	case <-hung.calls:
	case <-time.After(10 * time.Second):
		t.Fatal("the look made no Lease call")
	}
	clock.Step(renewDeadline - clock.Since(lastRenewal))
	eventually(t, "a gives shard 0/1 up at its renew deadline while its renewal hangs", func() bool { return len(a.work.lostShards()) == 1 })
	select {
	case <-done:
		t.Fatal("the look returned while its call hung")
	default:
	}
	if got := a.holder.Held(); len(got) != 0 {
		t.Fatalf("a still works %v", got)
	}
}

// (c) A renewal cut off at its deadline costs nothing while the next is confirmed within
// the renew deadline: the replica keeps its shard, and no other takes it.
func TestRenewalAfterAHungOneKeepsTheShard(t *testing.T) {
	client, clock, tl := leaseClient(), clocktesting.NewFakeClock(time.Unix(1_000_000, 0)), &timeline{}
	a, b := newReplica(client, clock, tl, "a", 1), newReplica(client, clock, tl, "b", 1)
	a.tick(t)
	b.tick(t)
	hung := hang(t, a, 1, false)
	clock.Step(retryPeriod)
	done := lookAsync(a)
	select {
	case ctx := <-hung.calls:
		endByDeadline(t, clock, ctx)
	case <-time.After(10 * time.Second):
		t.Fatal("the look made no Lease call")
	}
	<-done
	for range 20 {
		clock.Step(retryPeriod)
		a.tick(t)
		b.tick(t)
	}
	if lost := a.work.lostShards(); len(lost) != 0 {
		t.Fatalf("a lost %v", lost)
	}
	if got := indexes(a.holder.Held()); !slices.Equal(got, []int{0}) {
		t.Fatalf("a holds %v, want shard 0", got)
	}
	if got := b.holder.Held(); len(got) != 0 {
		t.Fatalf("b took %v from a replica that renews", got)
	}
	hung.setHangs(0)
}
