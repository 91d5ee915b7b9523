// Package tokenrequests is what the credentials put in front of a Keystone client's token
// requests (POST .../auth/tokens), below gophercloud, so that renewals pass as the first
// request does: each request admitted by a gate (the lockout gate: turns between
// namespaces, no user refused often enough to be locked out) and each outcome counted.
package tokenrequests

import (
	"context"
	"net/http"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// Outcomes of a token request, as an Observer and a gate's done are told them.
const (
	OK = "ok"
	// Rejected: Keystone refused the credentials (401 or 403; 404 for an application
	// credential it does not know, as a gate is told).
	Rejected = "rejected"
	// Unavailable: no answer, or a 5xx.
	Unavailable = "unavailable"
	// Error: any other answer.
	Error = "error"
)

// Outcomes are all the outcomes an Observer can be told.
var Outcomes = []string{OK, Rejected, Unavailable, Error}

// Observer is told the outcome of every token request to Keystone: the first
// authentication and each renewal of an expired or revoked token alike.
type Observer func(outcome string)

// Gate admits token requests to Keystone. Keystone locks an account out after a few
// refused requests in a row, a tenant can name any account in its clouds.yaml, and one
// namespace's requests should not hold up another's: a gate bounds how often each account
// is refused, and shares the controller's rate in turns.
type Gate interface {
	// Admit returns nil when who may send a token request now, after waiting for its
	// turn; done is then told the request's outcome (OK, Rejected, ...).
	Admit(ctx context.Context, who neutronclient.TokenRequester) (done func(outcome string), err error)
	// Authenticated tells that who's credentials got a token of Keystone user user.
	Authenticated(who neutronclient.TokenRequester, user neutronclient.TokenUser)
}

// Hooks returns the hooks of a Keystone client whose token requests gate admits (nil:
// all) and observe is told of (nil: no one), and whose Neutron calls observeCalls is told
// of (nil: no one).
func Hooks(observeCalls neutronclient.CallObserver, observe Observer, gate Gate) neutronclient.Hooks {
	hooks := neutronclient.Hooks{Observe: observeCalls}
	hooks.TokenRequests = func(next http.RoundTripper, who neutronclient.TokenRequester) http.RoundTripper {
		if gate != nil {
			next = gated{next: next, gate: gate, who: who}
		}
		if observe != nil {
			next = counted{next: next, observe: observe}
		}
		return next
	}
	if gate != nil {
		hooks.Authenticated = gate.Authenticated
	}
	return hooks
}

// counted tells observe about the token requests that pass through next.
type counted struct {
	next    http.RoundTripper
	observe Observer
}

func (t counted) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if isTokenRequest(req) {
		t.observe(outcome(resp, err))
	}
	return resp, err
}

// gated passes token requests to next only when gate admits them.
type gated struct {
	next http.RoundTripper
	gate Gate
	who  neutronclient.TokenRequester
}

func (t gated) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isTokenRequest(req) {
		return t.next.RoundTrip(req)
	}
	done, err := t.gate.Admit(req.Context(), t.who)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	result := outcome(resp, err)
	if err == nil && resp.StatusCode == http.StatusNotFound {
		result = Rejected // an application credential Keystone does not know
	}
	done(result)
	return resp, err
}

func outcome(resp *http.Response, err error) string {
	switch {
	case err != nil || resp.StatusCode >= 500:
		return Unavailable
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return Rejected
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return OK
	}
	return Error
}

// isTokenRequest reports whether req asks Keystone for a token.
func isTokenRequest(req *http.Request) bool {
	return req.Method == http.MethodPost && strings.HasSuffix(strings.TrimSuffix(req.URL.Path, "/"), "/auth/tokens")
}
