// Package startup waits for the process's dependencies when it starts.
package startup

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// Retry is how startup retries a dependency that does not answer yet: a pod may
// start before the apiserver, the CRD, its RBAC or Neutron are there.
type Retry struct {
	Initial, Max time.Duration // backoff between attempts, doubling from Initial to Max, with jitter
	LogEvery     time.Duration // at most one log line per this period
}

// DefaultRetry suits a pod that starts before the apiserver or Neutron answers.
var DefaultRetry = Retry{Initial: 250 * time.Millisecond, Max: 5 * time.Second, LogEvery: 5 * time.Second}

// permanentError is a startup failure that waiting cannot cure.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as one that no retry can cure, such as credentials Keystone
// refuses: WaitFor returns err at once.
func Permanent(err error) error { return &permanentError{err: err} }

// WaitFor calls try until it succeeds, fails permanently, or ctx ends (-neutron-startup-timeout, or a
// signal). Failed attempts are logged, one line per logEvery at most; the returned error
// names what did not answer, for how long, and the last error.
func (r Retry) WaitFor(ctx context.Context, what string, try func(context.Context) error) error {
	logger := klog.FromContext(ctx)
	start := time.Now()
	nextDelay := r.delays()
	var lastLog time.Time
	for attempt := 1; ; attempt++ {
		err := try(ctx)
		if err == nil {
			if attempt > 1 {
				logger.Info("Startup dependency answered", "dependency", what, "attempts", attempt, "after", time.Since(start).Round(time.Millisecond))
			}
			return nil
		}
		if permanent := (*permanentError)(nil); errors.As(err, &permanent) {
			return permanent.err
		}
		if ctx.Err() != nil {
			return gaveUp(ctx, what, attempt, start, err)
		}
		if lastLog.IsZero() || time.Since(lastLog) >= r.LogEvery {
			logger.Info("Waiting for a startup dependency", "dependency", what, "attempt", attempt, "err", err.Error())
			lastLog = time.Now()
		}
		select {
		case <-ctx.Done():
			return gaveUp(ctx, what, attempt, start, err)
		case <-time.After(nextDelay()):
		}
	}
}

// jitter lengthens each wait by up to 10 %, so that replicas started together (or all
// waiting for the same apiserver to come back) do not ask again in step.
const jitter = 0.1

// delays returns the waits between attempts, one per call: from Initial, doubling, each
// lengthened by its jitter, never below Initial nor above Max. The doubling stops at
// Max/(1+jitter), so that the waits at the top still differ yet stay within Max.
func (r Retry) delays() func() time.Duration {
	b := wait.Backoff{Duration: r.Initial, Factor: 2, Jitter: jitter, Steps: math.MaxInt32,
		Cap: max(r.Initial, time.Duration(float64(r.Max)/(1+jitter)))}
	return func() time.Duration { return min(b.Step(), r.Max) }
}

// gaveUp is WaitFor's error once ctx has ended.
func gaveUp(ctx context.Context, what string, attempts int, start time.Time, last error) error {
	why := "was interrupted"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		why = "timed out (-neutron-startup-timeout)"
	}
	return fmt.Errorf("waiting for %s %s after %d attempts in %s: %w",
		what, why, attempts, time.Since(start).Round(100*time.Millisecond), last)
}
