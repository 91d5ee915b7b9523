package neutronclient

import (
	"context"
	"sync"
	"time"

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
	// Other calls (the resync, startup) wait.
	Project *rate.Limiter
	// OnWait is told how long a call waited for Total (project false), or for Project,
	// or how long Project deferred it (project true). May be nil.
	OnWait func(project bool, d time.Duration)
}

// ProjectBudgets hands out one token bucket per OpenStack project, shared by every client
// that reaches the project, whatever its credentials.
type ProjectBudgets struct {
	limit rate.Limit
	burst int

	mu        sync.Mutex
	byProject map[string]*rate.Limiter
}

// NewProjectBudgets returns budgets of qps requests per second and burst each.
func NewProjectBudgets(qps float64, burst int) *ProjectBudgets {
	return &ProjectBudgets{limit: rate.Limit(qps), burst: burst, byProject: map[string]*rate.Limiter{}}
}

// Of returns the budget of projectID ("" for a Neutron without authentication).
func (b *ProjectBudgets) Of(projectID string) *rate.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.byProject[projectID]
	if l == nil {
		l = rate.NewLimiter(b.limit, b.burst)
		b.byProject[projectID] = l
	}
	return l
}

type deferKey struct{}

// DeferOverBudget returns ctx marked so that its calls fail with a *ThrottledError rather
// than wait when their project's budget is spent.
func DeferOverBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, deferKey{}, true)
}

func defersOverBudget(ctx context.Context) bool {
	deferring, _ := ctx.Value(deferKey{}).(bool)
	return deferring
}

// waitForLimits takes a request from the project's budget, then waits for the total.
func (c *Client) waitForLimits(ctx context.Context, op string) error {
	l := c.limits
	if l.Project != nil {
		if defersOverBudget(ctx) {
			r := l.Project.Reserve()
			if d := r.Delay(); d > 0 {
				r.Cancel()
				l.OnWait(true, d)
				return &neutron.ThrottledError{Op: op, Delay: d}
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
