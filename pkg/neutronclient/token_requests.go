package neutronclient

import (
	"context"
	"net/http"
	"strings"
)

// Outcomes of a Keystone token request, as a TokenObserver is told them.
const (
	TokenOK = "ok"
	// TokenRejected: Keystone refused the credentials (401 or 403).
	TokenRejected = "rejected"
	// TokenUnavailable: no answer, or a 5xx.
	TokenUnavailable = "unavailable"
	// TokenError: any other answer.
	TokenError = "error"
)

// TokenOutcomes are all the outcomes a TokenObserver can be told.
var TokenOutcomes = []string{TokenOK, TokenRejected, TokenUnavailable, TokenError}

// TokenObserver is told the outcome of every token request to Keystone: the first
// authentication and each renewal of an expired or revoked token alike.
type TokenObserver func(outcome string)

// tokenRequestCounter tells observe about the token requests (POST .../auth/tokens) that
// pass through next. It sits below gophercloud, which renews tokens on its own.
type tokenRequestCounter struct {
	next    http.RoundTripper
	observe TokenObserver
}

func (t tokenRequestCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if isTokenRequest(req) {
		t.observe(tokenOutcome(resp, err))
	}
	return resp, err
}

func tokenOutcome(resp *http.Response, err error) string {
	switch {
	case err != nil || resp.StatusCode >= 500:
		return TokenUnavailable
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return TokenRejected
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return TokenOK
	}
	return TokenError
}

// TokenRequester says whose token request it is, for an AuthGate; never a secret.
type TokenRequester struct {
	// Account names the Keystone account, in messages.
	Account string
	// Keystone is the normalized auth URL.
	Keystone string
	// LockoutUser is the user whose refused requests Keystone counts toward locking it
	// out: "id:<user ID>" or "name:<user name>" for a password, in the one spelling
	// lockout.CanonicalUser gives; "" for an application credential or a token, which
	// Keystone does not lock out.
	LockoutUser string
	// LockoutDomain is, for a user by name, its domain: "id:<ID>" or "name:<name>", as
	// lockout.CanonicalUser spells it.
	LockoutDomain string
	// Source names where the credentials come from (a Secret's cloud).
	Source string
	// Turn is whose turn the request waits for in the controller's rate: all requests
	// of one namespace, whatever their credentials, take one turn.
	Turn string
}

// AuthGate admits token requests to Keystone. Keystone locks an account out after a few
// refused requests in a row, a tenant can name any account in its clouds.yaml, and one
// namespace's requests should not hold up another's: a gate bounds how often each
// account is refused, and shares the controller's rate in turns.
type AuthGate interface {
	// Admit returns nil when who may send a token request now, after waiting for its
	// turn; done is then told the request's outcome (TokenOK, TokenRejected, ...).
	Admit(ctx context.Context, who TokenRequester) (done func(outcome string), err error)
	// Authenticated tells that who's credentials got a token of Keystone user user.
	Authenticated(who TokenRequester, user TokenUser)
}

// tokenRequestGate passes token requests (POST .../auth/tokens) to next only when gate
// admits them. It sits below gophercloud, so renewals pass it as the first request does.
type tokenRequestGate struct {
	next http.RoundTripper
	gate AuthGate
	who  TokenRequester
}

func (t tokenRequestGate) RoundTrip(req *http.Request) (*http.Response, error) {
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
	outcome := tokenOutcome(resp, err)
	if err == nil && resp.StatusCode == http.StatusNotFound {
		outcome = TokenRejected // an application credential Keystone does not know
	}
	done(outcome)
	return resp, err
}

// isTokenRequest reports whether req asks Keystone for a token.
func isTokenRequest(req *http.Request) bool {
	return req.Method == http.MethodPost && strings.HasSuffix(strings.TrimSuffix(req.URL.Path, "/"), "/auth/tokens")
}
