package lockout

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/samplecrd/network-controller/pkg/credentials/tokenrequests"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// A namespace's flood of token requests waits behind itself: another namespace's request
// is sent after at most one more of the flood's, on the gate's clock.
func TestAFloodOfTokenRequestsWaitsBehindItself(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	g := newGate(2, 2, nil, nil, clock)
	var mu sync.Mutex
	var sent []string
	var wg sync.WaitGroup
	request := func(who neutronclient.TokenRequester) {
		defer wg.Done()
		done, err := g.Admit(context.Background(), who)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		sent = append(sent, who.Turn)
		mu.Unlock()
		done(tokenrequests.OK)
	}
	sentCount := func() int { mu.Lock(); defer mu.Unlock(); return len(sent) }
	const flood = 30
	for i := range flood {
		wg.Add(1)
		go request(neutronclient.TokenRequester{Account: "x", Keystone: gateKeystone, Source: fmt.Sprintf("flood/cloud-%d", i), Turn: "flood"})
	}
	waitUntil(t, func() bool { return g.turns.Waiting() == flood-2 })
	wg.Add(1)
	go request(neutronclient.TokenRequester{Account: "dave", Keystone: gateKeystone, LockoutUser: "name:dave", Source: "calm/openstack", Turn: "calm"})
	waitUntil(t, func() bool { return g.turns.Waiting() == flood-1 })
	for want := 3; want <= 4; want++ {
		waitUntil(t, clock.HasWaiters)
		clock.Step(500 * time.Millisecond)
		waitUntil(t, func() bool { return sentCount() == want })
	}
	mu.Lock()
	calmAt := -1
	for i, turn := range sent {
		if turn == "calm" {
			calmAt = i
		}
	}
	mu.Unlock()
	if calmAt < 0 {
		t.Fatalf("calm's request was not sent within two permits of the flood's burst: %v", sent)
	}
	for range flood - 3 {
		waitUntil(t, clock.HasWaiters)
		clock.Step(500 * time.Millisecond)
	}
	wg.Wait()
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for the gate")
		}
		time.Sleep(time.Millisecond)
	}
}

// A token request of work that defers (a Network's run) does not wait for its turn: its
// turn is reserved in its ticket and the run is told when to come back, as for the Neutron
// budget; the next run with that ticket takes the turn once it came, and is admitted.
func TestDeferredTokenRequestKeepsItsTurnInItsTicket(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	var waited time.Duration
	g := newGate(1, 1, nil, nil, clock)
	g.OnTurnWait(func(d time.Duration) { waited += d })
	flood := neutronclient.TokenRequester{Account: "a", Keystone: gateKeystone, Source: "flood/s", Turn: "flood"}
	calm := neutronclient.TokenRequester{Account: "b", Keystone: gateKeystone, Source: "calm/s", Turn: "calm"}
	done, err := g.Admit(context.Background(), flood) // the burst
	if err != nil {
		t.Fatalf("the first request: %v", err)
	}
	done(tokenrequests.OK)

	ticket := &neutronclient.Ticket{}
	ctx := neutronclient.DeferOverBudget(context.Background(), ticket)
	_, err = g.Admit(ctx, calm)
	throttled, ok := neutron.AsThrottled(err)
	if !ok || throttled.Turn != "calm" || throttled.Delay != time.Second {
		t.Fatalf("Admit with no permit left = %v, want a *ThrottledError for calm's turn in 1s", err)
	}
	if !ticket.Held() {
		t.Fatal("the ticket holds no turn after the deferral")
	}

	clock.Step(time.Second)
	waitUntil(t, func() bool { return g.turns.Waiting() == 0 })
	done, err = g.Admit(ctx, calm)
	if err != nil {
		t.Fatalf("Admit after the turn came = %v, want admitted", err)
	}
	done(tokenrequests.OK)
	if ticket.Held() {
		t.Error("the ticket still holds the turn it used")
	}
	if waited != time.Second {
		t.Errorf("turn wait observed = %s, want 1s", waited)
	}
}
