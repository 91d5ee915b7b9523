package main

import (
	"math"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The store is filled however long Neutron takes to answer: the attempts go on at the
// backoff's cap rather than end there (wait.ExponentialBackoffWithContext gave up after
// the fifth).
func TestWaitForStoreRetriesPastTheBackoffCap(t *testing.T) {
	defer func(b wait.Backoff) { storeFillBackoff = b }(storeFillBackoff)
	storeFillBackoff = wait.Backoff{Duration: time.Millisecond, Factor: 2, Jitter: 0.1, Steps: math.MaxInt32, Cap: 4 * time.Millisecond}
	f := newFixture(t)
	f.Neutron.FailWith("list networks", &neutron.Error{Op: "list networks", Kind: neutron.KindUnavailable, Message: "connection refused"})
	done := make(chan error, 1)
	go func() { done <- f.controller.waitForStore(f.Ctx) }()

	const attempts = 12
	for listed := 0; listed < attempts; {
		select {
		case err := <-done:
			t.Fatalf("waitForStore returned %v after %d attempts while Neutron did not answer, want it to go on", err, listed)
		case <-time.After(time.Millisecond):
		}
		listed = 0
		for _, call := range f.Neutron.Calls() {
			if call == "list networks" {
				listed++
			}
		}
	}
	f.Neutron.FailWith("list networks", nil)
	if err := <-done; err != nil {
		t.Fatalf("waitForStore after Neutron answered: %v", err)
	}
}
