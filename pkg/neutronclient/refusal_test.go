package neutronclient

import (
	"errors"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

var refusedRenewal = &neutron.Error{Service: "keystone", Op: "list networks", Kind: neutron.KindRejected, Message: "Keystone refused to issue a new token: 401"}

// A tenant's refused credentials stay refused: only new credentials, with a new Client,
// ask Keystone again.
func TestRefusalHoldsForGoodWithoutRetrying(t *testing.T) {
	var r refusal
	if err := r.record(refusedRenewal); !neutron.IsCredentialsRefused(err) {
		t.Fatalf("record = %v, want the refusal", err)
	}
	for range 3 {
		if err := r.holding(); !neutron.IsCredentialsRefused(err) {
			t.Fatalf("holding = %v, want the refusal", err)
		}
	}
}

// The controller's own credentials are asked again after a backoff that doubles, as a
// transient failure, and recover on the first call that succeeds.
func TestRefusalOfOwnCredentialsIsRetriedWithBackoff(t *testing.T) {
	var changes []bool
	clock := time.Unix(1e9, 0)
	r := refusal{now: func() time.Time { return clock }}
	r.retry(10*time.Second, 25*time.Second, func(refused bool) { changes = append(changes, refused) })

	err := r.record(refusedRenewal)
	if neutron.KindOf(err) != neutron.KindUnavailable || neutron.IsCredentialsRefused(err) {
		t.Fatalf("record = %v, want a transient failure", err)
	}
	if err := r.holding(); err == nil || neutron.KindOf(err) != neutron.KindUnavailable {
		t.Fatalf("holding within the backoff = %v, want unavailable", err)
	}
	for _, wait := range []time.Duration{10 * time.Second, 20 * time.Second, 25 * time.Second, 25 * time.Second} {
		clock = clock.Add(wait - time.Second)
		if r.holding() == nil {
			t.Fatalf("asked again before %s", wait)
		}
		clock = clock.Add(time.Second)
		if err := r.holding(); err != nil {
			t.Fatalf("holding after %s = %v, want the call let through", wait, err)
		}
		r.record(refusedRenewal)
	}
	if err := r.record(nil); err != nil {
		t.Fatal(err)
	}
	if err := r.holding(); err != nil {
		t.Errorf("holding after a success = %v", err)
	}
	if len(changes) != 2 || !changes[0] || changes[1] {
		t.Errorf("changes %v, want [true false]", changes)
	}
	// Errors that are not refusals pass through untouched.
	other := errors.New("boom")
	if err := r.record(other); err != other {
		t.Errorf("record(other) = %v", err)
	}
}
