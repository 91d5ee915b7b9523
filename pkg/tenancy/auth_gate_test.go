package tenancy

import (
	"context"
	"strings"
	"testing"
	"time"
)

// An account Keystone refused RefusalsPerAccount times is not asked for again until
// its budget recovers; other accounts, and a request that was not refused, are not held.
func TestAuthGateHoldsAnAccountKeystoneKeepsRefusing(t *testing.T) {
	var held []string
	g := NewAuthGate(1000, 1000, func(limit string) { held = append(held, limit) })
	clock := time.Unix(1e9, 0)
	g.now = func() time.Time { return clock }
	ctx := context.Background()

	for i := range RefusalsPerAccount + 2 {
		done, err := g.Admit(ctx, "victim")
		if i >= RefusalsPerAccount {
			if err == nil || !strings.Contains(err.Error(), "could lock it out") {
				t.Fatalf("request %d: err %v, want it held back", i+1, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("request %d held back: %v", i+1, err)
		}
		done(true)
	}
	if len(held) != 2 || held[0] != HeldAccount {
		t.Errorf("held %v, want two for the account", held)
	}
	done, err := g.Admit(ctx, "bystander")
	if err != nil {
		t.Fatalf("another account held back: %v", err)
	}
	done(false)

	clock = clock.Add(RefusalRecovery)
	if done, err = g.Admit(ctx, "victim"); err != nil {
		t.Fatalf("after %s: %v", RefusalRecovery, err)
	}
	done(false)
	// Accepted requests cost nothing of the budget.
	for range 10 {
		done, err := g.Admit(ctx, "victim")
		if err != nil {
			t.Fatalf("an accepted account held back: %v", err)
		}
		done(false)
	}
}

// The controller-wide rate holds a request back until the context ends.
func TestAuthGateClusterRate(t *testing.T) {
	var held []string
	g := NewAuthGate(0.001, 1, func(limit string) { held = append(held, limit) })
	done, err := g.Admit(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	done(false)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.Admit(ctx, "b"); err == nil {
		t.Fatal("a second request within the rate was admitted")
	}
	if len(held) != 1 || held[0] != HeldCluster {
		t.Errorf("held %v, want one for the cluster", held)
	}
}
