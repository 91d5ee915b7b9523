package neutron

import (
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
	if req.Method == http.MethodPost && strings.HasSuffix(strings.TrimSuffix(req.URL.Path, "/"), "/auth/tokens") {
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
