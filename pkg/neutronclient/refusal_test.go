package neutronclient

import (
	"errors"
	"slices"
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
	// 10 s, then 20 s, each up to 10 % longer; then at most 25 s.
	for _, wait := range [][2]time.Duration{{10 * time.Second, 11 * time.Second}, {20 * time.Second, 22 * time.Second},
		{22 * time.Second, 25 * time.Second}, {22 * time.Second, 25 * time.Second}} {
		held := r.until.Sub(clock)
		if held < wait[0] || held > wait[1] {
			t.Fatalf("held for %s, want within [%s, %s]", held, wait[0], wait[1])
		}
		clock = r.until.Add(-time.Millisecond)
		if r.holding() == nil {
			t.Fatalf("asked again before %s", held)
		}
		clock = r.until
		if err := r.holding(); err != nil {
			t.Fatalf("holding after %s = %v, want the call let through", held, err)
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
	// A new run of refusals starts again from the first wait.
	r.record(refusedRenewal)
	if held := r.until.Sub(clock); held < 10*time.Second || held > 11*time.Second {
		t.Errorf("a refusal after a success holds for %s, want within [10s, 11s]", held)
	}
	// Errors that are not refusals pass through untouched.
	other := errors.New("boom")
	if err := r.record(other); err != other {
		t.Errorf("record(other) = %v", err)
	}
}

// The waits of a run of refusals carry jitter: two runs differ, and the waits at the top
// differ between themselves, yet none leaves [first, limit].
func TestRefusalBackoffHasJitterWithinItsBounds(t *testing.T) {
	const first, limit = 15 * time.Second, 5 * time.Minute
	run := func() []time.Duration {
		var r refusal
		r.retry(first, limit, nil)
		waits := make([]time.Duration, 30)
		for i := range waits {
			r.record(refusedRenewal)
			waits[i] = r.wait
		}
		return waits
	}
	a, b := run(), run()
	for i, w := range a {
		if w < first || w > limit {
			t.Fatalf("wait %d is %s, outside [%s, %s]: %v", i, w, first, limit, a)
		}
	}
	if slices.Equal(a, b) {
		t.Errorf("two runs of refusals wait alike, want jitter: %v", a)
	}
	if top := a[len(a)-10:]; slices.Min(top) == slices.Max(top) {
		t.Errorf("the last 10 waits are all %s, want them spread", top[0])
	}
}
