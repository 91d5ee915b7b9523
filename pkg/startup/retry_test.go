package startup

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

var fastRetry = Retry{Initial: time.Millisecond, Max: 4 * time.Millisecond, LogEvery: time.Hour}

func TestWaitForRetriesUntilTheDependencyAnswers(t *testing.T) {
	calls := 0
	err := fastRetry.WaitFor(context.Background(), "the apiserver", func(context.Context) error {
		calls++
		if calls < 5 {
			return errors.New("connection refused")
		}
		return nil
	})
	if err != nil || calls != 5 {
		t.Fatalf("WaitFor = %v after %d calls, want success on the 5th", err, calls)
	}
}

func TestWaitForGivesUpAtTheDeadlineWithTheLastError(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	refused := errors.New("connection refused")
	calls := 0
	err := fastRetry.WaitFor(ctx, "Neutron at http://x/", func(context.Context) error {
		calls++
		return refused
	})
	if !errors.Is(err, refused) || calls < 2 {
		t.Fatalf("WaitFor = %v after %d calls, want the last error after several attempts", err, calls)
	}
	for _, want := range []string{"Neutron at http://x/", "timed out (-neutron-startup-timeout)", "attempts"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestWaitForStopsAtAPermanentError(t *testing.T) {
	refused := errors.New("keystone authentication: 401")
	attempts := 0
	r := Retry{Initial: time.Millisecond, Max: time.Millisecond, LogEvery: time.Hour}
	err := r.WaitFor(context.Background(), "Neutron", func(context.Context) error {
		attempts++
		return Permanent(refused)
	})
	if err != refused || attempts != 1 {
		t.Errorf("WaitFor = %v after %d attempts, want the refusal itself after 1", err, attempts)
	}
}

// The waits double from Initial, each lengthened by at most the jitter, and never leave
// [Initial, Max]; two sequences differ, and so do the waits once at the top.
func TestRetryDelaysDoubleWithJitterWithinTheirBounds(t *testing.T) {
	r := DefaultRetry // 250 ms doubling up to 5 s
	sequence := func() []time.Duration {
		next := r.delays()
		out := make([]time.Duration, 40)
		for i := range out {
			out[i] = next()
		}
		return out
	}
	a, b := sequence(), sequence()
	base := r.Initial
	for i, d := range a {
		if d < r.Initial || d > r.Max {
			t.Fatalf("wait %d is %s, outside [%s, %s]: %v", i, d, r.Initial, r.Max, a)
		}
		// Before the top: Initial·2^i, lengthened by at most 10 %.
		if base <= r.Max/2 && (d < base || d > base+base/10) {
			t.Errorf("wait %d is %s, want within [%s, %s]", i, d, base, base+base/10)
		}
		base = min(2*base, r.Max)
	}
	if slices.Equal(a, b) {
		t.Errorf("two sequences of waits are equal, want jitter: %v", a)
	}
	top := a[len(a)-20:]
	if slices.Min(top) == slices.Max(top) {
		t.Errorf("the last 20 waits are all %s, want them spread by the jitter", top[0])
	}
	if lowest := time.Duration(float64(r.Max) / 1.1); slices.Min(top) < lowest {
		t.Errorf("a wait at the top is %s, want at least %s", slices.Min(top), lowest)
	}
}

// A Retry whose Initial is its Max waits exactly that: the jitter never takes a wait
// above Max.
func TestRetryDelaysOfAFixedRetryStayAtMax(t *testing.T) {
	r := Retry{Initial: time.Second, Max: time.Second}
	next := r.delays()
	for range 20 {
		if d := next(); d != time.Second {
			t.Fatalf("wait %s, want 1s", d)
		}
	}
}
