package startup

import (
	"context"
	"errors"
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
