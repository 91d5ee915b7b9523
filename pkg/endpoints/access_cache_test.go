package endpoints

import (
	"net/http"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
)

// Answers are remembered: a scraper with the same token costs one review of each kind,
// and the right is remembered per user, not per token.
func TestAccessFilterCachesAnswers(t *testing.T) {
	const secondToken = "second-allowed-token-3c7f12"
	kube, api := newFakeAPIServer()
	api.setUser(secondToken, api.users[allowedToken])
	next := &recordingHandler{}
	filter := newAccessFilter(kube)
	handler := filter.wrap(next)

	steps := []struct {
		name                       string
		token                      string
		wantCode                   int
		wantTokenReviews, wantSARs int
		wantHandlerCalls           int
	}{
		{"first request", allowedToken, http.StatusOK, 1, 1, 1},
		{"same token again", allowedToken, http.StatusOK, 1, 1, 2},
		{"another token of the same user", secondToken, http.StatusOK, 2, 1, 3},
		{"denied user", deniedToken, http.StatusForbidden, 3, 2, 3},
		{"denied user again", deniedToken, http.StatusForbidden, 3, 2, 3},
		{"unknown token", unknownToken, http.StatusUnauthorized, 4, 2, 3},
		{"unknown token again", unknownToken, http.StatusUnauthorized, 4, 2, 3},
		{"allowed token after the others", allowedToken, http.StatusOK, 4, 2, 4},
	}
	for _, step := range steps {
		code, body := sendRequest(t, handler, http.MethodGet, "Bearer "+step.token)
		if code != step.wantCode {
			t.Errorf("%s: status %d, want %d (body %q)", step.name, code, step.wantCode, body)
		}
		gotTR, gotSAR := api.counts()
		if gotTR != step.wantTokenReviews || gotSAR != step.wantSARs {
			t.Errorf("%s: %d TokenReviews and %d SubjectAccessReviews in all, want %d and %d", step.name, gotTR, gotSAR, step.wantTokenReviews, step.wantSARs)
		}
		if got := next.count(); got != step.wantHandlerCalls {
			t.Errorf("%s: wrapped handler ran %d times in all, want %d", step.name, got, step.wantHandlerCalls)
		}
	}

	// Only digests of the tokens are kept.
	filter.users.mu.Lock()
	defer filter.users.mu.Unlock()
	if len(filter.users.answers) != 4 {
		t.Errorf("%d users remembered, want 4 (one per token)", len(filter.users.answers))
	}
	for key := range filter.users.answers {
		for _, token := range []string{allowedToken, secondToken, deniedToken, unknownToken} {
			if strings.Contains(key, token) {
				t.Errorf("the users cache holds the token %q in a key", token)
			}
		}
	}
}

// Answers are forgotten after their time: an allowed one after a minute, a denied one and
// an unknown token after 10 s, an authenticated token after a minute.
func TestAccessFilterAnswerLifetimes(t *testing.T) {
	type check struct {
		after                      time.Duration
		wantCode                   int
		wantTokenReviews, wantSARs int
	}
	cases := []struct {
		name  string
		token string
		// Before the first request.
		setup func(api *fakeAPIServer)
		first check
		// change is made to the apiserver's answers after the first request: it shows once
		// an answer is asked again.
		change func(api *fakeAPIServer)
		checks []check
	}{
		{
			name:   "allowed answer lasts a minute",
			token:  allowedToken,
			first:  check{0, http.StatusOK, 1, 1},
			change: func(api *fakeAPIServer) { api.setAllowed(allowedUser, false) },
			checks: []check{
				{10 * time.Second, http.StatusOK, 1, 1},
				{time.Minute - time.Nanosecond, http.StatusOK, 1, 1},
				{time.Minute, http.StatusForbidden, 2, 2},
			},
		},
		{
			name:   "denied answer lasts 10 s",
			token:  deniedToken,
			first:  check{0, http.StatusForbidden, 1, 1},
			change: func(api *fakeAPIServer) { api.setAllowed(deniedUser, true) },
			checks: []check{
				{10*time.Second - time.Nanosecond, http.StatusForbidden, 1, 1},
				// The user is still remembered: only the right is asked again.
				{10 * time.Second, http.StatusOK, 1, 2},
			},
		},
		{
			name:  "unknown token is remembered 10 s",
			token: unknownToken,
			first: check{0, http.StatusUnauthorized, 1, 0},
			change: func(api *fakeAPIServer) {
				api.setUser(unknownToken, api.users[allowedToken])
			},
			checks: []check{
				{10*time.Second - time.Nanosecond, http.StatusUnauthorized, 1, 0},
				{10 * time.Second, http.StatusOK, 2, 1},
			},
		},
		{
			// The denied answer is asked again every 10 s; the user only after a minute.
			name:  "authenticated token is remembered a minute",
			token: deniedToken,
			first: check{0, http.StatusForbidden, 1, 1},
			change: func(api *fakeAPIServer) {
				api.mu.Lock()
				delete(api.users, deniedToken)
				api.mu.Unlock()
			},
			checks: []check{
				{10 * time.Second, http.StatusForbidden, 1, 2},
				{time.Minute - time.Nanosecond, http.StatusForbidden, 1, 3},
				{time.Minute, http.StatusUnauthorized, 2, 3},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kube, api := newFakeAPIServer()
			clock := newFakeClock()
			start := clock.Now()
			filter := newAccessFilter(kube)
			filter.users.now = clock.Now
			filter.rights.now = clock.Now
			handler := filter.wrap(&recordingHandler{})

			run := func(c check) {
				t.Helper()
				clock.set(start.Add(c.after))
				code, body := sendRequest(t, handler, http.MethodGet, "Bearer "+tc.token)
				if code != c.wantCode {
					t.Errorf("after %v: status %d, want %d (body %q)", c.after, code, c.wantCode, body)
				}
				gotTR, gotSAR := api.counts()
				if gotTR != c.wantTokenReviews || gotSAR != c.wantSARs {
					t.Errorf("after %v: %d TokenReviews and %d SubjectAccessReviews in all, want %d and %d", c.after, gotTR, gotSAR, c.wantTokenReviews, c.wantSARs)
				}
			}
			run(tc.first)
			tc.change(api)
			for _, c := range tc.checks {
				run(c)
			}
		})
	}
}

// Two users whose groups differ only in how they split the same words get a review each:
// the cache key must tell ["a", "b"] from ["a b"].
func TestAccessFilterCacheKeepsGroupListsApart(t *testing.T) {
	const splitToken, joinedToken = "split-groups-token-5d1e", "joined-groups-token-8a2c"
	kube, api := newFakeAPIServer()
	api.setUser(splitToken, authenticationv1.UserInfo{Username: "carol", Groups: []string{"metrics-readers", "system:authenticated"}})
	api.setUser(joinedToken, authenticationv1.UserInfo{Username: "carol", Groups: []string{"metrics-readers system:authenticated"}})
	api.setAllowed("carol", true)
	handler := newAccessFilter(kube).wrap(&recordingHandler{})
	if code, _ := sendRequest(t, handler, http.MethodGet, "Bearer "+splitToken); code != http.StatusOK {
		t.Fatalf("split groups: %d, want 200", code)
	}
	api.setAllowed("carol", false)
	if code, _ := sendRequest(t, handler, http.MethodGet, "Bearer "+joinedToken); code != http.StatusForbidden {
		t.Errorf("joined groups: %d, want 403 from a review of its own", code)
	}
	expectReviews(t, api, 2, 2)
}
