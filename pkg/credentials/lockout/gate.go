package lockout

import (
	"context"
	"fmt"
	"time"

	"k8s.io/utils/clock"

	"github.com/samplecrd/network-controller/pkg/credentials/tokenturns"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// Gate admits the token requests of credentials Secrets (neutronclient.Gate). The
// controller-wide rate is shared in turns between namespaces, so that one namespace's
// flood of clouds and user names waits behind itself; and no password's user gets more
// than MaxRefusalsInARow refused requests in a row (accounts.go).
type Gate struct {
	turns    *tokenturns.Limiter
	onHeld   func(limit string)
	onWait   func(time.Duration)
	clock    clock.PassiveClock
	lockouts *lockouts
}

// Limits the gate holds token requests back for, as onHeld is told them.
const (
	// HeldAccount: another refusal could get the account locked out.
	HeldAccount = "account"
	// HeldCluster: the request's context ended while it waited for its turn in the
	// controller-wide rate.
	HeldCluster = "cluster"
)

// HeldLimits are all the limits onHeld can be told.
var HeldLimits = []string{HeldAccount, HeldCluster}

// NewGate returns a gate of qps token requests per second (burst at once) for the
// whole controller. onHeld, when not nil, is told each request held back and why;
// onAccountsHeld, when not nil, how many accounts are held back now.
func NewGate(qps float64, burst int, onHeld func(limit string), onAccountsHeld func(int)) *Gate {
	return newGate(qps, burst, onHeld, onAccountsHeld, clock.RealClock{})
}

func newGate(qps float64, burst int, onHeld func(limit string), onAccountsHeld func(int), c clock.WithDelayedExecution) *Gate {
	if onHeld == nil {
		onHeld = func(string) {}
	}
	return &Gate{turns: tokenturns.New(qps, burst, c), onHeld: onHeld, onWait: func(time.Duration) {}, clock: c, lockouts: newLockouts(onAccountsHeld, c.Now)}
}

// SetRate changes the controller-wide rate of token requests, as when a replica's share
// of the shards changes.
func (g *Gate) SetRate(qps float64, burst int) { g.turns.SetRate(qps, burst) }

// OnTurnWait makes the gate tell f how long each admitted request waited for its turn.
// Call it before the first Admit.
func (g *Gate) OnTurnWait(f func(time.Duration)) { g.onWait = f }

// Admit admits who's token request unless another refusal could get its user locked
// out, once its namespace's turn comes.
func (g *Gate) Admit(ctx context.Context, who neutronclient.TokenRequester) (func(outcome string), error) {
	if err := g.lockouts.precheck(who); err != nil {
		g.onHeld(HeldAccount)
		return nil, err
	}
	if err := g.takeTurn(ctx, who); err != nil {
		return nil, err
	}
	done, err := g.lockouts.begin(ctx, who)
	if err != nil {
		g.onHeld(HeldAccount)
		return nil, err
	}
	return done, nil
}

// takeTurn waits for the turn of who's namespace in the controller-wide rate. Work that
// defers rather than waits (neutronclient.DeferOverBudget, with a ticket) does not hold
// its worker meanwhile: its turn is reserved in its ticket, and it is told, as a
// *neutron.ThrottledError, about when to come back for it.
func (g *Gate) takeTurn(ctx context.Context, who neutronclient.TokenRequester) error {
	ticket, deferring := neutronclient.DeferringTicket(ctx)
	if !deferring || ticket == nil {
		start := g.clock.Now()
		if err := g.turns.Wait(ctx, who.Turn); err != nil {
			g.onHeld(HeldCluster)
			return fmt.Errorf("not asking Keystone for a token: waiting for the turn of %s in the controller's rate of token requests: %w", who.Turn, err)
		}
		g.onWait(g.clock.Since(start))
		return nil
	}
	turn, _ := ticket.TakeTurn().(*tokenturns.Reservation)
	if turn == nil || turn.Party() != who.Turn {
		if turn != nil {
			turn.Cancel()
		}
		turn = g.turns.Reserve(who.Turn)
	}
	if turn.Granted() {
		g.onWait(g.clock.Since(turn.Made()))
		return nil
	}
	ticket.HoldTurn(turn)
	return &neutron.ThrottledError{Op: "token request of " + who.Account, Delay: max(turn.ReadyIn(), minTurnDelay), Turn: who.Turn}
}

// minTurnDelay is the shortest a deferred token request is put off: its turn comes with
// a permit, and a permit with at least this much time.
const minTurnDelay = 10 * time.Millisecond

// KeepRecordIn makes the gate keep its counts in record (named where in messages and
// logs; onError is told each failed read or write) instead of in memory. Call it before
// the first Admit.
func (g *Gate) KeepRecordIn(record Record, where string, onError func(error)) {
	g.lockouts.mu.Lock()
	defer g.lockouts.mu.Unlock()
	g.lockouts.record, g.lockouts.where, g.lockouts.onError = record, where, onError
}

// Authenticated learns which user's ID, name and domain who's credentials stand for, so
// that refusals of either spelling count for that one user.
func (g *Gate) Authenticated(who neutronclient.TokenRequester, user neutronclient.TokenUser) {
	g.lockouts.link(who, user)
}

// OwnAccount tells the gate the controller's own Keystone user, which authenticated at
// keystone (spelt as tenants' credentials are, registry.NormalizeAuthURL): Secrets naming
// it get no more refusals than leave its renewals one to spare.
func (g *Gate) OwnAccount(keystone string, user neutronclient.TokenUser) {
	g.lockouts.link(neutronclient.TokenRequester{Keystone: keystone, Source: ownSource}, user)
}

// ownSource stands for the controller's own credentials among an account's sources.
const ownSource = "the controller's own credentials"
