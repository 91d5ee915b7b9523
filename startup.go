package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/klog/v2"
)

// startupRetry is how startup retries a dependency that does not answer yet: a pod may
// start before the apiserver, the CRD, its RBAC or Neutron are there.
type startupRetry struct {
	initial, max time.Duration // backoff between attempts, doubling from initial to max
	logEvery     time.Duration // at most one log line per this period
}

var defaultStartupRetry = startupRetry{initial: 250 * time.Millisecond, max: 5 * time.Second, logEvery: 5 * time.Second}

// permanentError is a startup failure that waiting cannot cure, such as credentials
// Keystone refuses: waitFor returns the error inside at once.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// waitFor calls try until it succeeds, fails permanently, or ctx ends (-neutron-startup-timeout, or a
// signal). Failed attempts are logged, one line per logEvery at most; the returned error
// names what did not answer, for how long, and the last error.
func (r startupRetry) waitFor(ctx context.Context, what string, try func(context.Context) error) error {
	logger := klog.FromContext(ctx)
	start := time.Now()
	delay := r.initial
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
		if lastLog.IsZero() || time.Since(lastLog) >= r.logEvery {
			logger.Info("Waiting for a startup dependency", "dependency", what, "attempt", attempt, "err", err.Error())
			lastLog = time.Now()
		}
		select {
		case <-ctx.Done():
			return gaveUp(ctx, what, attempt, start, err)
		case <-time.After(delay):
		}
		delay = min(2*delay, r.max)
	}
}

// gaveUp is waitFor's error once ctx has ended.
func gaveUp(ctx context.Context, what string, attempts int, start time.Time, last error) error {
	why := "was interrupted"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		why = "timed out (-neutron-startup-timeout)"
	}
	return fmt.Errorf("waiting for %s %s after %d attempts in %s: %w",
		what, why, attempts, time.Since(start).Round(100*time.Millisecond), last)
}
