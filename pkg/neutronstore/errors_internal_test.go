package neutronstore

import (
	"fmt"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A call its project's budget held back was never sent: the store keeps what it knows.
func TestThrottledCallHasAKnownOutcome(t *testing.T) {
	err := fmt.Errorf("creating: %w", &neutron.ThrottledError{Op: "create network", Delay: time.Second})
	if outcomeUnknown(err) {
		t.Error("a call never sent counts as one whose outcome is unknown: the store would forget what it knows")
	}
	if !outcomeUnknown(&neutron.Error{Op: "create network", Kind: neutron.KindUnavailable}) {
		t.Error("a call without an answer does not count as one whose outcome is unknown")
	}
}
