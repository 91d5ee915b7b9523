package neutronclient

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// refusal is a Client's memory of Keystone refusing to renew its token. Asking again
// with the same credentials would be refused again and brings the account closer to a
// lockout, so calls fail at once while it holds: for good (a tenant's credentials, which
// only a new Secret changes), or for a backoff when retrying is on.
type refusal struct {
	mu  sync.Mutex
	err *neutron.Error
	// With retrying on: first and limit bound the backoff, whose state is backoff (zero
	// until the first refusal of a run), wait is the current one, until is when the next
	// call may ask Keystone again.
	retrying     bool
	first, limit time.Duration
	backoff      wait.Backoff
	wait         time.Duration
	until        time.Time
	onChange     func(refused bool)
	now          func() time.Time
}

func (r *refusal) retry(first, limit time.Duration, onChange func(bool)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if onChange == nil {
		onChange = func(bool) {}
	}
	r.retrying, r.first, r.limit, r.onChange = true, first, limit, onChange
}

func (r *refusal) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

// holding returns the error a call fails with at once, or nil when it may be sent.
func (r *refusal) holding() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.err == nil:
		return nil
	case !r.retrying:
		return r.err
	}
	left := r.until.Sub(r.clock())
	if left <= 0 {
		// This call asks Keystone again (through Neutron's 401); the ones after it
		// wait for its outcome as they would for any call.
		return nil
	}
	return r.unavailable(left)
}

// record notes the outcome of a call that was sent, and returns err as the caller gets it.
func (r *refusal) record(err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ne *neutron.Error
	if !neutron.IsCredentialsRefused(err) || !errors.As(err, &ne) {
		if r.err != nil && r.retrying && err == nil {
			r.err, r.wait, r.backoff = nil, 0, wait.Backoff{}
			r.onChange(false)
		}
		return err
	}
	if !r.retrying {
		if r.err == nil {
			r.err = ne
		}
		return err
	}
	if r.err == nil {
		r.onChange(true)
	}
	r.err = ne
	if r.backoff.Duration == 0 {
		r.backoff = refusalBackoff(r.first, r.limit)
	}
	r.wait = min(r.backoff.Step(), r.limit)
	r.until = r.clock().Add(r.wait)
	return r.unavailable(r.wait)
}

// refusalJitter lengthens each wait by up to 10 %: replicas whose Keystone user was
// disabled together do not ask again together.
const refusalJitter = 0.1

// refusalBackoff is the waits of one run of refusals: from first, doubling, never below
// first nor above limit. The doubling stops at limit/(1+jitter), so that the waits at the
// top keep their jitter within limit.
func refusalBackoff(first, limit time.Duration) wait.Backoff {
	return wait.Backoff{Duration: first, Factor: 2, Jitter: refusalJitter, Steps: math.MaxInt32,
		Cap: max(first, time.Duration(float64(limit)/(1+refusalJitter)))}
}

// unavailable is the refusal as a transient failure: retrying is on.
func (r *refusal) unavailable(left time.Duration) *neutron.Error {
	return &neutron.Error{Service: "keystone", Op: r.err.Op, Kind: neutron.KindUnavailable,
		Message: fmt.Sprintf("%s; asking again in %s", r.err.Message, left.Round(time.Second)), Err: r.err}
}
