package neutronclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// revokingCloud is a Keystone that numbers the tokens it issues and a Neutron that refuses
// the first `refused` of them (401), as Keystone does with the tokens issued in the second
// of a password change.
type revokingCloud struct {
	mu       sync.Mutex
	issued   int
	requests []string // the tokens Neutron was sent, in order
}

func (rc *revokingCloud) start(t *testing.T, refused int) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/v3/auth/tokens":
			rc.issued++
			w.Header().Set("X-Subject-Token", fmt.Sprintf("token-%d", rc.issued))
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"token": {"expires_at": "2099-01-01T00:00:00Z", "user": {"id": "u-1", "name": "alice", "password_expires_at": null},
				"project": {"id": "p1", "name": "team-a"}, "catalog": [{"type": "network", "endpoints": [{"interface": "public", "region": "RegionOne", "url": "%s/neutron"}]}]}}`, srv.URL)
		case strings.HasPrefix(r.URL.Path, "/neutron/"):
			token := r.Header.Get("X-Auth-Token")
			rc.requests = append(rc.requests, token)
			var n int
			fmt.Sscanf(token, "token-%d", &n)
			if n <= refused {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"error": {"code": 401, "message": "The request you have made requires authentication."}}`)
				return
			}
			fmt.Fprint(w, `{"networks": []}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func connectPausing(t *testing.T, srv *httptest.Server, pauses *[]time.Duration) *Client {
	t.Helper()
	c := connectTo(t, srv)
	c.pause = func(_ context.Context, d time.Duration) error { *pauses = append(*pauses, d); return nil }
	return c
}

// A password changed and put into the Secret within one second: Neutron refuses the token
// taken with the new password and gophercloud's renewal of it, both issued in the second
// Keystone revoked the user's tokens. The call waits out that second, renews once more and
// succeeds: the Network never shows an authentication error.
func TestTokenRenewedInTheSecondOfARevocationIsRenewedOnceMore(t *testing.T) {
	rc := &revokingCloud{}
	srv := rc.start(t, 2)
	var pauses []time.Duration
	c := connectPausing(t, srv, &pauses)

	if _, err := c.ListNetworks(context.Background(), neutron.Filter{}); err != nil {
		t.Fatalf("ListNetworks = %v, want the list", err)
	}
	want := []string{"token-1", "token-2", "token-2", "token-3"}
	if fmt.Sprint(rc.requests) != fmt.Sprint(want) {
		t.Errorf("Neutron was sent the tokens %v, want %v", rc.requests, want)
	}
	if len(pauses) != 1 || pauses[0] != revocationGrain {
		t.Errorf("paused %v, want once for %v", pauses, revocationGrain)
	}
}

// Tokens Neutron goes on refusing: the call is tried once more, not again and again, and
// fails as unavailable (retried with backoff), not as refused credentials.
func TestTokenRefusedAfterEveryRenewalFailsAfterOneMoreTry(t *testing.T) {
	rc := &revokingCloud{}
	srv := rc.start(t, 1000)
	var pauses []time.Duration
	c := connectPausing(t, srv, &pauses)

	_, err := c.ListNetworks(context.Background(), neutron.Filter{})
	if neutron.KindOf(err) != neutron.KindUnavailable || neutron.IsCredentialsRefused(err) {
		t.Fatalf("ListNetworks = %v, want unavailable", err)
	}
	if len(rc.requests) != 4 || rc.issued != 3 || len(pauses) != 1 {
		t.Errorf("%d Neutron requests, %d tokens, %d pauses; want 4, 3 and 1", len(rc.requests), rc.issued, len(pauses))
	}
	if c.Refused() != nil {
		t.Error("Keystone issued every token asked for, yet the client holds a refusal")
	}
}
