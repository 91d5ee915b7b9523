package neutronclient

import (
	"context"
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
