package neutron

import (
	"fmt"
	"testing"
	"time"
)

// A call its project's budget held back was never sent: the store keeps what it knows.
func TestThrottledCallHasAKnownOutcome(t *testing.T) {
	err := fmt.Errorf("creating: %w", &ThrottledError{Op: "create network", Delay: time.Second})
	if outcomeUnknown(err) {
		t.Error("a call never sent counts as one whose outcome is unknown: the store would forget what it knows")
	}
	if !outcomeUnknown(&Error{Op: "create network", Kind: KindUnavailable}) {
		t.Error("a call without an answer does not count as one whose outcome is unknown")
	}
}
