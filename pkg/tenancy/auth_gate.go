package tenancy

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Keystone locks an account out after a few refused token requests in a row, and a
// tenant's clouds.yaml may name any account: another team's user, or the controller's
// own. So no Secret content may make the controller send many refused requests for one
// account, however many Secrets and Networks name it.
const (
	// RefusalsPerAccount is how many refused token requests an account may have in a
	// row before the gate holds its requests back. Keystone's lockout_failure_attempts
	// is usually 5 or more.
	RefusalsPerAccount = 3
	// RefusalRecovery is how long it takes for one more refusal to be allowed.
	RefusalRecovery = 10 * time.Minute
	// maxTrackedAccounts bounds the accounts remembered; ones without recent refusals go
	// first.
	maxTrackedAccounts = 4096
)

// AuthGate admits the token requests of tenants' credentials (neutronclient.AuthGate): at most
// a controller-wide rate, and for each Keystone account (principal) a budget of refusals
// that recovers over time. Requests of one account go one at a time, so its refusals are
// counted exactly.
type AuthGate struct {
	cluster *rate.Limiter
	onHeld  func(limit string)
	now     func() time.Time

	mu       sync.Mutex
	accounts map[string]*account
}

type account struct {
	// busy is held from a request's admission until its outcome is known.
	busy     sync.Mutex
	refusals *rate.Limiter
}

// Limits the gate holds token requests back for, as onHeld is told them.
const (
	// HeldAccount: Keystone refused the account too often lately.
	HeldAccount = "account"
	// HeldCluster: the controller-wide rate of token requests.
	HeldCluster = "cluster"
)

// HeldLimits are all the limits onHeld can be told.
var HeldLimits = []string{HeldAccount, HeldCluster}

// NewAuthGate returns a gate of qps token requests per second (burst at once) for the
// whole controller; onHeld, when not nil, is told each request held back and why.
func NewAuthGate(qps float64, burst int, onHeld func(limit string)) *AuthGate {
	if onHeld == nil {
		onHeld = func(string) {}
	}
	return &AuthGate{cluster: rate.NewLimiter(rate.Limit(qps), burst), onHeld: onHeld, now: time.Now, accounts: map[string]*account{}}
}

// Admit waits for the controller-wide rate, then admits principal's request unless
// Keystone refused the account too often lately.
func (g *AuthGate) Admit(ctx context.Context, principal string) (func(refused bool), error) {
	if err := g.cluster.Wait(ctx); err != nil {
		g.onHeld(HeldCluster)
		return nil, fmt.Errorf("not asking Keystone for a token: waiting for the controller's rate of authentications: %w", err)
	}
	a := g.accountOf(principal)
	a.busy.Lock()
	if tokens := a.refusals.TokensAt(g.now()); tokens < 1 {
		a.busy.Unlock()
		g.onHeld(HeldAccount)
		wait := time.Duration((1 - tokens) * float64(RefusalRecovery))
		return nil, fmt.Errorf("not asking Keystone for a token: it refused this account %d times lately, and more refusals could lock it out; asking again in %s",
			RefusalsPerAccount, wait.Round(time.Second))
	}
	return func(refused bool) {
		if refused {
			a.refusals.AllowN(g.now(), 1)
		}
		a.busy.Unlock()
	}, nil
}

// accountOf returns principal's account, remembering it.
func (g *AuthGate) accountOf(principal string) *account {
	g.mu.Lock()
	defer g.mu.Unlock()
	if a := g.accounts[principal]; a != nil {
		return a
	}
	if len(g.accounts) >= maxTrackedAccounts {
		g.forgetRecoveredLocked()
	}
	a := &account{refusals: rate.NewLimiter(rate.Every(RefusalRecovery), RefusalsPerAccount)}
	g.accounts[principal] = a
	return a
}

// forgetRecoveredLocked drops the accounts whose refusal budget is full again: they are
// no different from accounts never seen.
func (g *AuthGate) forgetRecoveredLocked() {
	now := g.now()
	for p, a := range g.accounts {
		if a.refusals.TokensAt(now) >= RefusalsPerAccount && a.busy.TryLock() {
			a.busy.Unlock()
			delete(g.accounts, p)
		}
	}
}
