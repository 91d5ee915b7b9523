package neutronclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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
	ctx := DeferOverBudget(context.Background())
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

func TestProjectsHaveBudgetsOfTheirOwn(t *testing.T) {
	b := NewProjectBudgets(1, 1)
	if b.Of("p1") != b.Of("p1") {
		t.Error("two clients of one project got different budgets")
	}
	if !b.Of("p1").Allow() {
		t.Fatal("a fresh budget has no token")
	}
	if b.Of("p1").Allow() {
		t.Error("p1's budget allowed a second request at once")
	}
	if !b.Of("p2").Allow() {
		t.Error("p1's spent budget held back p2")
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

// near reports whether d is within 30 ms below want (time passes between the calls).
func near(d, want time.Duration) bool { return d > want-30*time.Millisecond && d <= want }

// A deferred call's ticket keeps its request: the calls deferred after it wait behind it,
// and the next run takes that request when it is due, without asking the budget again.
func TestDeferredRequestKeepsItsPlace(t *testing.T) {
	c, hits := budgetedClient(t, RateLimits{Project: rate.NewLimiter(rate.Limit(10), 1)})
	if _, err := c.ListNetworks(DeferOverBudget(context.Background()), neutron.Filter{}); err != nil {
		t.Fatalf("first call, within the burst: %v", err)
	}
	tickets := make([]*Ticket, 3)
	for i := range tickets {
		tickets[i] = &Ticket{}
		_, err := c.ListNetworks(DeferOverBudgetHolding(context.Background(), tickets[i]), neutron.Filter{})
		if d, want := deferredBy(t, fmt.Sprintf("deferred call %d", i), err), time.Duration(i+1)*100*time.Millisecond; !near(d, want) {
			t.Errorf("deferred call %d: delay %s, want about %s: in turn behind the ones deferred before", i, d, want)
		}
		if !tickets[i].Held() {
			t.Errorf("ticket %d holds nothing", i)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := c.ListNetworks(DeferOverBudgetHolding(context.Background(), tickets[0]), neutron.Filter{}); err != nil {
		t.Fatalf("the first deferred call's next run, at its time: %v", err)
	}
	if tickets[0].Held() {
		t.Error("ticket 0 still holds its request after the call took it")
	}
	// The second comes back early (queued again meanwhile): it keeps its place.
	_, err := c.ListNetworks(DeferOverBudgetHolding(context.Background(), tickets[1]), neutron.Filter{})
	if d := deferredBy(t, "early run", err); !near(d, 100*time.Millisecond) || !tickets[1].Held() {
		t.Errorf("early run: delay %s (want about 100ms), ticket held %v (want true)", d, tickets[1].Held())
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("Neutron saw %d requests, want 2", n)
	}
}

// A released ticket gives its request back: the next call deferred waits for that
// request's time, not behind it.
func TestReleasedTicketGivesItsRequestBack(t *testing.T) {
	budget := rate.NewLimiter(rate.Limit(10), 1)
	c, _ := budgetedClient(t, RateLimits{Project: budget})
	if _, err := c.ListNetworks(DeferOverBudget(context.Background()), neutron.Filter{}); err != nil {
		t.Fatal(err)
	}
	ticket := &Ticket{}
	_, err := c.ListNetworks(DeferOverBudgetHolding(context.Background(), ticket), neutron.Filter{})
	deferredBy(t, "deferred call", err)
	ticket.Release()
	if ticket.Held() {
		t.Error("a released ticket holds a request")
	}
	_, err = c.ListNetworks(DeferOverBudgetHolding(context.Background(), &Ticket{}), neutron.Filter{})
	if d := deferredBy(t, "call after the release", err); !near(d, 100*time.Millisecond) {
		t.Errorf("delay %s, want about 100ms: the released request is free again", d)
	}
	// A ticket held in another project's budget is released when its work calls there.
	other := rate.NewLimiter(rate.Limit(10), 1)
	other.Allow()
	moved := &Ticket{}
	moved.hold(other, other.Reserve())
	if d, ok := moved.redeem(budget, time.Now()); ok || moved.Held() {
		t.Errorf("redeem in another budget = %s, %v, held %v; want not ok, released", d, ok, moved.Held())
	}
	if !near(other.Reserve().Delay(), 100*time.Millisecond) {
		t.Error("the other budget did not get its request back")
	}
}

// Workers that take each deferred item up again when its ThrottledError says, with a
// ticket per item, defer each request over the budget once and finish as soon as the
// budget allows; without tickets they take the items up many times over for the same
// calls.
func TestDeferredItemsAreNotTakenUpAgainAndAgain(t *testing.T) {
	const items, workers, qps, burst = 20, 4, 100, 5
	for _, withTickets := range []bool{true, false} {
		t.Run(fmt.Sprintf("tickets=%v", withTickets), func(t *testing.T) {
			c, hits := budgetedClient(t, RateLimits{Project: rate.NewLimiter(rate.Limit(qps), burst)})
			queue := make(chan int, items)
			tickets := make([]*Ticket, items)
			for i := range items {
				queue <- i
				if withTickets {
					tickets[i] = &Ticket{}
				}
			}
			var deferred, done atomic.Int32
			finished := make(chan struct{})
			start := time.Now()
			for range workers {
				go func() {
					for {
						select {
						case <-finished:
							return
						case i := <-queue:
							_, err := c.ListNetworks(DeferOverBudgetHolding(context.Background(), tickets[i]), neutron.Filter{})
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
			select {
			case <-finished:
			case <-time.After(10 * time.Second):
				t.Fatalf("%d of %d items done after 10 s", done.Load(), items)
			}
			took := time.Since(start)
			t.Logf("%d items, %d requests, %d deferrals, %s", items, hits.Load(), deferred.Load(), took)
			if !withTickets {
				return
			}
			if n := deferred.Load(); n > items-burst {
				t.Errorf("%d deferrals, want at most %d: one per request over the burst", n, items-burst)
			}
			if want := time.Duration(items-burst) * time.Second / qps; took > want+100*time.Millisecond {
				t.Errorf("took %s, want about %s: the budget's rate", took, want)
			}
		})
	}
}
