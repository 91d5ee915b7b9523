package lockout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

const gateKeystone = "https://keystone.example.com/v3"

// requester is a password's token request for user from a Secret of namespace.
func requester(namespace, secret, user string) neutronclient.TokenRequester {
	return neutronclient.TokenRequester{Account: user, Keystone: gateKeystone, LockoutUser: user, Source: namespace + "/" + secret, Turn: namespace}
}

// ask asks the gate and tells it outcome; it returns whether the request was sent. A
// token shows the user's ID and name, as Keystone's does: "uid-<name>" for a user named
// by name, "<id>" and "name-of-<id>" for one named by ID.
func ask(t *testing.T, g *Gate, who neutronclient.TokenRequester, outcome string) bool {
	t.Helper()
	done, err := g.Admit(context.Background(), who)
	if err != nil {
		var held *AccountHeldError
		if !errors.As(err, &held) {
			t.Fatalf("%s: %v, want an *AccountHeldError", who.Source, err)
		}
		return false
	}
	done(outcome)
	if outcome == neutronclient.TokenOK && who.LockoutUser != "" {
		kind, user, _ := strings.Cut(who.LockoutUser, ":")
		if kind == "id" {
			g.Authenticated(who, user, "name-of-"+user)
		} else {
			g.Authenticated(who, "uid-"+foldUserName(user), strings.TrimSpace(user))
		}
	}
	return true
}

// Keystone sees at most MaxRefusalsInARow refusals in a row for one user, whatever the
// Secrets, namespaces and versions naming it; another user is not held.
func TestAUserGetsAtMostTwoRefusalsInARow(t *testing.T) {
	var heldNow int
	g := NewGate(1000, 1000, nil, func(n int) { heldNow = n })
	sent := 0
	for i := range 10 {
		who := requester(fmt.Sprintf("ns-%d", i%3), fmt.Sprintf("secret-v%d", i), "name:victim")
		if ask(t, g, who, neutronclient.TokenRejected) {
			sent++
		}
	}
	if sent != MaxRefusalsInARow {
		t.Errorf("%d refused requests sent for one user, want %d", sent, MaxRefusalsInARow)
	}
	if heldNow != 1 {
		t.Errorf("accounts held %d, want 1", heldNow)
	}
	if !ask(t, g, requester("ns-0", "other", "name:bystander"), neutronclient.TokenOK) {
		t.Error("another user was held")
	}
}

// A token issued resets the count, as it resets Keystone's.
func TestATokenIssuedResetsTheCount(t *testing.T) {
	var heldNow int
	g := NewGate(1000, 1000, nil, func(n int) { heldNow = n })
	ask(t, g, requester("a", "typo", "name:alice"), neutronclient.TokenRejected)
	if !ask(t, g, requester("a", "fixed", "name:alice"), neutronclient.TokenOK) {
		t.Fatal("the second try was held")
	}
	// The password changed in Keystone: the Secret that worked is refused, twice.
	for i := range MaxRefusalsInARow {
		if !ask(t, g, requester("a", "fixed", "name:alice"), neutronclient.TokenRejected) {
			t.Fatalf("refusal %d after a token was held", i+1)
		}
	}
	if heldNow != 1 || ask(t, g, requester("a", "more", "name:alice"), neutronclient.TokenRejected) {
		t.Errorf("held %d, and a third refusal in a row was sent", heldNow)
	}
}

// Once a user's credentials got a token, a Secret that never did gets one refusal: the
// last one is kept for the credentials that work.
func TestCredentialsThatWorkedKeepTheLastRefusal(t *testing.T) {
	g := NewGate(1000, 1000, nil, nil)
	owner := requester("team-b", "openstack", "name:bob")
	ask(t, g, owner, neutronclient.TokenOK)
	if !ask(t, g, requester("hostile", "guess-1", "name:bob"), neutronclient.TokenRejected) {
		t.Fatal("the first guess was held")
	}
	if ask(t, g, requester("hostile", "guess-2", "name:bob"), neutronclient.TokenRejected) {
		t.Fatal("a second guess was sent while credentials of the user work")
	}
	if !ask(t, g, owner, neutronclient.TokenOK) {
		t.Fatal("the owner's renewal was held")
	}
}

// A user named by ID and by name is one user once a token showed both, and the
// controller's own user is known from the start.
func TestIDAndNameOfOneUserCountTogether(t *testing.T) {
	g := NewGate(1000, 1000, nil, nil)
	appCred := neutronclient.TokenRequester{Account: "app cred", Keystone: gateKeystone, Source: "team-c/openstack", Turn: "team-c"}
	g.Authenticated(appCred, "u-1", "Carol")
	ask(t, g, requester("hostile", "by-name", "name:carol"), neutronclient.TokenRejected)
	ask(t, g, requester("hostile", "by-id", "id:u-1"), neutronclient.TokenRejected)
	if ask(t, g, requester("hostile", "by-name-again", "name:carol"), neutronclient.TokenRejected) {
		t.Error("a third refusal in a row was sent: the ID and the name were counted apart")
	}

	g.OwnAccount(gateKeystone, "u-own", "controller")
	if !ask(t, g, requester("hostile", "own-1", "name:controller"), neutronclient.TokenRejected) {
		t.Fatal("the first guess at the controller's user was held")
	}
	if ask(t, g, requester("hostile", "own-2", "id:u-own"), neutronclient.TokenRejected) {
		t.Error("a second guess at the controller's own user was sent")
	}
}

// Application credentials and tokens are not locked out by Keystone: never held.
func TestOtherMethodsAreNotCounted(t *testing.T) {
	g := NewGate(1000, 1000, nil, nil)
	for i := range 5 {
		who := neutronclient.TokenRequester{Account: "app cred", Keystone: gateKeystone, Source: fmt.Sprintf("a/s-%d", i), Turn: "a"}
		if !ask(t, g, who, neutronclient.TokenRejected) {
			t.Fatalf("request %d held", i+1)
		}
	}
}

// A namespace whose Secrets got MaxRefusedUsersPerNamespace users refused tries no other
// user, so made-up names cost a bounded memory; other namespaces go on.
func TestANamespaceMayNotRefuseUnboundedUsers(t *testing.T) {
	g := NewGate(1000, 1000, nil, nil)
	for i := range MaxRefusedUsersPerNamespace {
		if !ask(t, g, requester("flood", "s", fmt.Sprintf("name:made-up-%d", i)), neutronclient.TokenRejected) {
			t.Fatalf("made-up user %d held", i)
		}
	}
	if ask(t, g, requester("flood", "s", "name:one-more"), neutronclient.TokenRejected) {
		t.Error("the namespace tried a user past its bound")
	}
	if !ask(t, g, requester("calm", "s", "name:one-more"), neutronclient.TokenOK) {
		t.Error("another namespace was held by the flood's bound")
	}
	distinct := map[*account]bool{}
	for _, a := range g.lockouts.accounts {
		distinct[a] = true
	}
	if n := len(distinct); n > MaxRefusedUsersPerNamespace+1 {
		t.Errorf("%d accounts remembered, want at most %d", n, MaxRefusedUsersPerNamespace+1)
	}
}

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
		done(neutronclient.TokenOK)
	}
	sentCount := func() int { mu.Lock(); defer mu.Unlock(); return len(sent) }
	const flood = 30
	for i := range flood {
		wg.Add(1)
		go request(neutronclient.TokenRequester{Account: "x", Keystone: gateKeystone, Source: fmt.Sprintf("flood/cloud-%d", i), Turn: "flood"})
	}
	waitUntil(t, func() bool { return g.turns.Waiting() == flood-2 })
	wg.Add(1)
	go request(requester("calm", "openstack", "name:dave"))
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
	flood, calm := requester("flood", "s", "a"), requester("calm", "s", "b")
	if !ask(t, g, flood, neutronclient.TokenOK) { // the burst
		t.Fatal("the first request was held")
	}

	ticket := &neutronclient.Ticket{}
	ctx := neutronclient.DeferOverBudget(context.Background(), ticket)
	_, err := g.Admit(ctx, calm)
	throttled, ok := neutron.AsThrottled(err)
	if !ok || throttled.Turn != "calm" || throttled.Delay != time.Second {
		t.Fatalf("Admit with no permit left = %v, want a *ThrottledError for calm's turn in 1s", err)
	}
	if !ticket.Held() {
		t.Fatal("the ticket holds no turn after the deferral")
	}

	clock.Step(time.Second)
	waitUntil(t, func() bool { return g.turns.Waiting() == 0 })
	done, err := g.Admit(ctx, calm)
	if err != nil {
		t.Fatalf("Admit after the turn came = %v, want admitted", err)
	}
	done(neutronclient.TokenOK)
	if ticket.Held() {
		t.Error("the ticket still holds the turn it used")
	}
	if waited != time.Second {
		t.Errorf("turn wait observed = %s, want 1s", waited)
	}
}
