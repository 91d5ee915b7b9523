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

// AuthGate admits token requests to Keystone. Keystone locks an account out after a few
// refused requests, and a tenant can name any account in its clouds.yaml: a gate bounds
// how often each account, and the whole controller, asks.
type AuthGate interface {
	// Admit returns nil when principal may send a token request now, after waiting for
	// any shared budget; done is then told whether Keystone refused the request.
	Admit(ctx context.Context, principal string) (done func(refused bool), err error)
}

// tokenRequestGate passes token requests (POST .../auth/tokens) to next only when gate
// admits them. It sits below gophercloud, so renewals pass it as the first request does.
type tokenRequestGate struct {
	next      http.RoundTripper
	gate      AuthGate
	principal string
}

func (t tokenRequestGate) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isTokenRequest(req) {
		return t.next.RoundTrip(req)
	}
	done, err := t.gate.Admit(req.Context(), t.principal)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	done(err == nil && refusedStatus(resp.StatusCode))
	return resp, err
}

// isTokenRequest reports whether req asks Keystone for a token.
func isTokenRequest(req *http.Request) bool {
	return req.Method == http.MethodPost && strings.HasSuffix(strings.TrimSuffix(req.URL.Path, "/"), "/auth/tokens")
}

// refusedStatus reports whether Keystone's answer to a token request is a refusal of the
// credentials (an unknown application credential is 404).
func refusedStatus(code int) bool {
	return code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound
}
