package neutronclient

import (
	"context"
	"runtime"
	"sync"
	"time"
	"weak"

	"golang.org/x/time/rate"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// RateLimits are the client-side limits a Client's calls keep to.
type RateLimits struct {
	// Total is shared by the clients of every project: a call waits for it.
	Total *rate.Limiter
	// Project is the budget of the client's project (ProjectBudgets). A call whose
	// context comes from DeferOverBudget does not wait for it: it fails at once with a
	// *ThrottledError, so that the worker can take another project's work meanwhile.
	// Other calls (the resync, startup) wait, behind the requests tickets hold.
	Project *rate.Limiter
	// OnWait is told how long a call waited for Total (project false), or for Project,
	// or how long Project deferred it (project true). May be nil.
	OnWait func(project bool, d time.Duration)
	// Now is the clock deferrals are measured by; nil is time.Now.
	Now func() time.Time
}

// ProjectBudgets hands out one token bucket per Place (Keystone, region, Neutron, project
// and TLS trust), shared by every client that reaches the Place, whatever its
// credentials. Keyed by the project ID alone, credentials that merely claim a project (a
// Keystone or a CA of a tenant's choosing) could spend another Place's budget.
//
// A budget lives while a client holds it: a tenant can make Places without end (a CA per
// Secret version), and a budget no client holds is as good as a new one.
type ProjectBudgets struct {
	limit rate.Limit
	burst int

	mu      sync.Mutex
	byPlace map[neutron.Place]weak.Pointer[rate.Limiter]
}

// NewProjectBudgets returns budgets of qps requests per second and burst each.
func NewProjectBudgets(qps float64, burst int) *ProjectBudgets {
	return &ProjectBudgets{limit: rate.Limit(qps), burst: burst, byPlace: map[neutron.Place]weak.Pointer[rate.Limiter]{}}
}

// SetRate changes every project's budget, the ones in use too, to qps and burst.
func (b *ProjectBudgets) SetRate(qps float64, burst int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.limit, b.burst = rate.Limit(qps), burst
	for _, w := range b.byPlace {
		if l := w.Value(); l != nil {
			l.SetLimit(b.limit)
			l.SetBurst(b.burst)
		}
	}
}

// Of returns the budget of place; the caller keeps it for as long as it spends it.
func (b *ProjectBudgets) Of(place neutron.Place) *rate.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	if l := b.byPlace[place].Value(); l != nil {
		return l
	}
	l := rate.NewLimiter(b.limit, b.burst)
	w := weak.Make(l)
	b.byPlace[place] = w
	runtime.AddCleanup(l, b.forget, placeBudget{place, w})
	return l
}

type placeBudget struct {
	place  neutron.Place
	budget weak.Pointer[rate.Limiter]
}

// forget drops the entry of a budget no client holds any more.
func (b *ProjectBudgets) forget(gone placeBudget) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byPlace[gone.place] == gone.budget {
		delete(b.byPlace, gone.place)
	}
}

type deferKey struct{}

// deferring is what DeferOverBudget marks a context with.
type deferring struct{ ticket *Ticket }

// DeferOverBudget returns ctx marked so that its calls fail with a *ThrottledError rather
// than wait when their project's budget is spent. A non-nil ticket keeps the deferred
// request's place in the budget for the next run of the same work: the call that run makes
// first in that project takes the request reserved for it, at the time the ThrottledError
// said, instead of asking the budget again. So each request over the budget is deferred
// once, in turn with the others, rather than asked for again, with every other deferred
// one, each time a token comes, until it happens to get one: workers would spend their
// time taking the same deferred work up again and again, for no call more. The caller
// passes the same ticket to the next run, and releases it once a run ends without
// deferral. With a nil ticket the request is given back.
func DeferOverBudget(ctx context.Context, ticket *Ticket) context.Context {
	return context.WithValue(ctx, deferKey{}, deferring{ticket: ticket})
}

func deferringOf(ctx context.Context) (deferring, bool) {
	d, ok := ctx.Value(deferKey{}).(deferring)
	return d, ok
}

// DeferringTicket returns the ticket of a context from DeferOverBudget: its work defers
// rather than waits, for a token request's turn (the gate Hooks.TokenRequests passes
// them through) as for the budget. ok is false for other contexts, whose work waits; the
// ticket may be nil.
func DeferringTicket(ctx context.Context) (ticket *Ticket, ok bool) {
	d, ok := deferringOf(ctx)
	return d.ticket, ok
}

// Turn is a wait reserved elsewhere than in the budget, e.g. a token request's turn,
// that a Ticket keeps from one run to the next and cancels on Release.
type Turn interface{ Cancel() }

// Ticket holds a request a project's budget reserved for a deferred call, from one run
// of the work to the next. The zero value holds nothing. Its methods are safe for
// concurrent use.
type Ticket struct {
	mu          sync.Mutex
	budget      *rate.Limiter
	reservation *rate.Reservation
	clock       func() time.Time // the budget's clock, to give the request back by
	turn        Turn
}

// Held reports whether the ticket holds a reserved request or turn.
func (t *Ticket) Held() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.reservation != nil || t.turn != nil
}

// Release gives a reserved request that was not used back to its budget, as far as it is
// still to come, and cancels a turn it holds.
func (t *Ticket) Release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.reservation != nil {
		t.reservation.CancelAt(t.clock())
	}
	if t.turn != nil {
		t.turn.Cancel()
	}
	t.budget, t.reservation, t.clock, t.turn = nil, nil, nil, nil
}

// HoldTurn keeps turn for the next run, cancelling one held before.
func (t *Ticket) HoldTurn(turn Turn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.turn != nil && t.turn != turn {
		t.turn.Cancel()
	}
	t.turn = turn
}

// TakeTurn returns the turn the ticket holds, if any, and holds it no more.
func (t *Ticket) TakeTurn() Turn {
	t.mu.Lock()
	defer t.mu.Unlock()
	turn := t.turn
	t.turn = nil
	return turn
}

// redeem takes the request the ticket holds in budget: ok with the time still to wait for
// it (zero: it is due and now used), or not ok when the ticket holds none there (a
// request held in another project's budget is released).
func (t *Ticket) redeem(budget *rate.Limiter, now time.Time) (wait time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.reservation == nil {
		return 0, false
	}
	if t.budget != budget {
		t.reservation.CancelAt(t.clock())
		t.budget, t.reservation, t.clock = nil, nil, nil
		return 0, false
	}
	if wait = t.reservation.DelayFrom(now); wait == 0 {
		t.budget, t.reservation, t.clock = nil, nil, nil
	}
	return wait, true
}

// hold keeps r, reserved in budget, for the next run.
func (t *Ticket) hold(budget *rate.Limiter, r *rate.Reservation, clock func() time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.reservation != nil {
		t.reservation.CancelAt(t.clock())
	}
	t.budget, t.reservation, t.clock = budget, r, clock
}

// deferOverBudget takes a request from the project's budget for a call that must not
// wait for it: nil when the call may go, or the *ThrottledError saying when to come back.
func (l RateLimits) deferOverBudget(d deferring, op string) error {
	now := l.Now()
	if d.ticket != nil {
		if wait, ok := d.ticket.redeem(l.Project, now); ok {
			if wait == 0 {
				return nil
			}
			// Back before its turn (the work was queued again meanwhile): the ticket
			// keeps it.
			l.OnWait(true, wait)
			return &neutron.ThrottledError{Op: op, Delay: wait}
		}
	}
	r := l.Project.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	if wait == 0 {
		return nil
	}
	if d.ticket != nil {
		d.ticket.hold(l.Project, r, l.Now)
	} else {
		r.CancelAt(now)
	}
	l.OnWait(true, wait)
	return &neutron.ThrottledError{Op: op, Delay: wait}
}

// waitForLimits takes a request from the project's budget, then waits for the total.
func (c *Client) waitForLimits(ctx context.Context, op string) error {
	l := c.limits
	if l.Project != nil {
		if d, ok := deferringOf(ctx); ok {
			if err := l.deferOverBudget(d, op); err != nil {
				return err
			}
		} else {
			start := time.Now()
			if err := l.Project.Wait(ctx); err != nil {
				return wrapError(op, err)
			}
			l.OnWait(true, time.Since(start))
		}
	}
	if l.Total != nil {
		start := time.Now()
		if err := l.Total.Wait(ctx); err != nil {
			return wrapError(op, err)
		}
		l.OnWait(false, time.Since(start))
	}
	return nil
}
