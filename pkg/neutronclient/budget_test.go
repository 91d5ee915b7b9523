package neutronclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// budgetedClient is a Client of a Neutron that answers every request with no networks,
// counting the requests that reach it.
func budgetedClient(t *testing.T, limits RateLimits) (*Client, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"networks": []}`))
	}))
	t.Cleanup(srv.Close)
	c, err := ConnectEndpoint(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.LimitRate(limits)
	return c, &hits
}

func TestSpentProjectBudgetDefersWithoutSending(t *testing.T) {
	var deferredBy []time.Duration
	c, hits := budgetedClient(t, RateLimits{
		Project: rate.NewLimiter(rate.Limit(1), 1),
		OnWait: func(project bool, d time.Duration) {
			if project && d > 0 {
				deferredBy = append(deferredBy, d)
			}
		},
	})
	ctx := DeferOverBudget(context.Background(), nil)
	if _, err := c.ListNetworks(ctx, neutron.Filter{}); err != nil {
		t.Fatalf("first call, within the burst: %v", err)
	}
	_, err := c.ListNetworks(ctx, neutron.Filter{})
	throttled, ok := neutron.AsThrottled(err)
	if !ok {
		t.Fatalf("second call at once: err = %v, want a *neutron.ThrottledError", err)
	}
	if throttled.Delay <= 0 || throttled.Delay > time.Second {
		t.Errorf("Delay = %s, want the time to the next token, in (0, 1s]", throttled.Delay)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("Neutron saw %d requests, want 1: a deferred call is not sent", n)
	}
	if len(deferredBy) != 1 || deferredBy[0] != throttled.Delay {
		t.Errorf("OnWait(project) got %v, want [%s]", deferredBy, throttled.Delay)
	}
	// The budget refills: the deferred call goes through after its delay.
	time.Sleep(throttled.Delay)
	if _, err := c.ListNetworks(ctx, neutron.Filter{}); err != nil {
		t.Fatalf("after the delay: %v", err)
	}
}

func TestCallsOutsideWorkersWaitForTheProjectBudget(t *testing.T) {
	c, hits := budgetedClient(t, RateLimits{
		Project: rate.NewLimiter(rate.Limit(50), 1),
		Total:   rate.NewLimiter(rate.Inf, 1),
	})
	for i := range 3 {
		if _, err := c.ListNetworks(context.Background(), neutron.Filter{}); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if n := hits.Load(); n != 3 {
		t.Errorf("Neutron saw %d requests, want 3", n)
	}
}

func TestPlacesHaveBudgetsOfTheirOwn(t *testing.T) {
	b := NewProjectBudgets(1, 1)
	p1 := neutron.Place{Identity: "https://keystone.example.com/v3", Endpoint: "https://neutron.example.com/", ProjectID: "p1"}
	held := b.Of(p1) // as a client of p1 holds it
	if b.Of(p1) != held {
		t.Error("two clients of one Place got different budgets")
	}
	if !held.Allow() {
		t.Fatal("a fresh budget has no token")
	}
	runtime.GC()
	if b.Of(p1).Allow() {
		t.Error("p1's budget allowed a second request at once")
	}
	p2 := p1
	p2.ProjectID = "p2"
	// One project ID claimed by another Keystone, or vouched for by a tenant's own CA,
	// is another Place.
	otherKeystone := p1
	otherKeystone.Identity = "https://attacker.example.com/v3"
	otherTrust := p1
	otherTrust.Trust = "ca-sha256:0123"
	for name, other := range map[string]neutron.Place{"another project": p2, "another Keystone": otherKeystone, "another trust": otherTrust} {
		if !b.Of(other).Allow() {
			t.Errorf("p1's spent budget held back %s", name)
		}
	}
	runtime.KeepAlive(held)
}

// Budgets no client holds are forgotten: Places a tenant makes without end (a CA per
// Secret version) cost no memory once their clients are gone.
func TestBudgetsNoClientHoldsAreForgotten(t *testing.T) {
	b := NewProjectBudgets(1, 1)
	kept := b.Of(neutron.Place{ProjectID: "kept"})
	for i := range 1000 {
		b.Of(neutron.Place{ProjectID: "p", Trust: fmt.Sprintf("ca-sha256:%d", i)}).Allow()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		b.mu.Lock()
		n := len(b.byPlace)
		b.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d budgets remembered after their clients were gone, want 1", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if b.Of(neutron.Place{ProjectID: "kept"}) != kept {
		t.Error("a budget a client holds was forgotten")
	}
}

// deferredBy returns the delay of a deferred call's *neutron.ThrottledError.
func deferredBy(t *testing.T, what string, err error) time.Duration {
	t.Helper()
	throttled, ok := neutron.AsThrottled(err)
	if !ok {
		t.Fatalf("%s: err = %v, want a *neutron.ThrottledError", what, err)
	}
	return throttled.Delay
}

// fakeClock is the clock deferrals are measured by in a test: it moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_800_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// A deferred call's ticket keeps its request: the calls deferred after it wait behind it,
// and the next run takes that request when it is due, without asking the budget again.
func TestDeferredRequestKeepsItsPlace(t *testing.T) {
	clock := newFakeClock()
	c, hits := budgetedClient(t, RateLimits{Project: rate.NewLimiter(rate.Limit(10), 1), Now: clock.Now})
	if _, err := c.ListNetworks(DeferOverBudget(context.Background(), nil), neutron.Filter{}); err != nil {
		t.Fatalf("first call, within the burst: %v", err)
	}
	tickets := make([]*Ticket, 3)
	for i := range tickets {
		tickets[i] = &Ticket{}
		_, err := c.ListNetworks(DeferOverBudget(context.Background(), tickets[i]), neutron.Filter{})
		if d, want := deferredBy(t, fmt.Sprintf("deferred call %d", i), err), time.Duration(i+1)*100*time.Millisecond; d != want {
			t.Errorf("deferred call %d: delay %s, want %s: in turn behind the ones deferred before", i, d, want)
		}
		if !tickets[i].Held() {
			t.Errorf("ticket %d holds nothing", i)
		}
	}
	clock.Step(100 * time.Millisecond)
	if _, err := c.ListNetworks(DeferOverBudget(context.Background(), tickets[0]), neutron.Filter{}); err != nil {
		t.Fatalf("the first deferred call's next run, at its time: %v", err)
	}
	if tickets[0].Held() {
		t.Error("ticket 0 still holds its request after the call took it")
	}
	// The second comes back early (queued again meanwhile): it keeps its place.
	_, err := c.ListNetworks(DeferOverBudget(context.Background(), tickets[1]), neutron.Filter{})
	if d := deferredBy(t, "early run", err); d != 100*time.Millisecond || !tickets[1].Held() {
		t.Errorf("early run: delay %s (want 100ms), ticket held %v (want true)", d, tickets[1].Held())
	}
	// A new call comes after every held request.
	_, err = c.ListNetworks(DeferOverBudget(context.Background(), &Ticket{}), neutron.Filter{})
	if d := deferredBy(t, "new call", err); d != 300*time.Millisecond {
		t.Errorf("new call: delay %s, want 300ms: behind the two requests still held", d)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("Neutron saw %d requests, want 2", n)
	}
}

// A released ticket gives its request back: the next call deferred waits for that
// request's time, not behind it.
func TestReleasedTicketGivesItsRequestBack(t *testing.T) {
	clock := newFakeClock()
	budget := rate.NewLimiter(rate.Limit(10), 1)
	c, _ := budgetedClient(t, RateLimits{Project: budget, Now: clock.Now})
	if _, err := c.ListNetworks(DeferOverBudget(context.Background(), nil), neutron.Filter{}); err != nil {
		t.Fatal(err)
	}
	ticket := &Ticket{}
	_, err := c.ListNetworks(DeferOverBudget(context.Background(), ticket), neutron.Filter{})
	deferredBy(t, "deferred call", err)
	ticket.Release()
	if ticket.Held() {
		t.Error("a released ticket holds a request")
	}
	_, err = c.ListNetworks(DeferOverBudget(context.Background(), &Ticket{}), neutron.Filter{})
	if d := deferredBy(t, "call after the release", err); d != 100*time.Millisecond {
		t.Errorf("delay %s, want 100ms: the released request is free again", d)
	}
	// A ticket held in another project's budget is released when its work calls there.
	other := rate.NewLimiter(rate.Limit(10), 1)
	now := clock.Now()
	other.AllowN(now, 1)
	moved := &Ticket{}
	moved.hold(other, other.ReserveN(now, 1), clock.Now)
	if d, ok := moved.redeem(budget, now); ok || moved.Held() {
		t.Errorf("redeem in another budget = %s, %v, held %v; want not ok, released", d, ok, moved.Held())
	}
	if d := other.ReserveN(now, 1).DelayFrom(now); d != 100*time.Millisecond {
		t.Errorf("the other budget's next request is %s away, want 100ms: it got the released one back", d)
	}
}

// Workers that take each deferred item up again when its ThrottledError says, with a
// ticket per item, defer each request over the budget once, however many workers take
// items up at the same token.
func TestDeferredItemsAreNotTakenUpAgainAndAgain(t *testing.T) {
	const items, workers, qps, burst = 20, 4, 100, 5
	c, hits := budgetedClient(t, RateLimits{Project: rate.NewLimiter(rate.Limit(qps), burst)})
	queue := make(chan int, items)
	tickets := make([]*Ticket, items)
	for i := range items {
		queue <- i
		tickets[i] = &Ticket{}
	}
	var deferred, done atomic.Int32
	finished := make(chan struct{})
	for range workers {
		go func() {
			for {
				select {
				case <-finished:
					return
				case i := <-queue:
					_, err := c.ListNetworks(DeferOverBudget(context.Background(), tickets[i]), neutron.Filter{})
					if throttled, ok := neutron.AsThrottled(err); ok {
						deferred.Add(1)
						time.AfterFunc(throttled.Delay, func() { queue <- i })
						continue
					}
					if done.Add(1) == items {
						close(finished)
					}
				}
			}
		}()
	}
	<-finished
	if n := hits.Load(); n != items {
		t.Errorf("Neutron saw %d requests, want %d", n, items)
	}
	// Tokens that come while the first calls go out can spare a few their deferral.
	if n := deferred.Load(); n > items-burst {
		t.Errorf("%d deferrals, want at most %d: one per request over the burst", n, items-burst)
	}
}

// SetRate changes the budgets in use and the ones made after it.
func TestProjectBudgetsSetRate(t *testing.T) {
	b := NewProjectBudgets(10, 20)
	p1 := neutron.Place{Identity: "https://keystone.example.com/v3", Endpoint: "https://neutron.example.com/", ProjectID: "p1"}
	held := b.Of(p1)
	b.SetRate(2.5, 5)
	p2 := p1
	p2.ProjectID = "p2"
	for name, l := range map[string]*rate.Limiter{"in use": held, "made after": b.Of(p2)} {
		if l.Limit() != 2.5 || l.Burst() != 5 {
			t.Errorf("the budget %s has %v a second, burst %d; want 2.5 and 5", name, l.Limit(), l.Burst())
		}
	}
	runtime.KeepAlive(held)
}
