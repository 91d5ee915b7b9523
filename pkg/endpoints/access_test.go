package endpoints

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// Tokens and users the fake apiserver knows. The tokens are distinctive so that a response
// body quoting one is easy to spot.
const (
	allowedToken   = "allowed-token-5f1c9e"
	deniedToken    = "denied-token-a83d27"
	unknownToken   = "unknown-token-0b6e44"
	allowedUser    = "system:serviceaccount:monitoring:prometheus"
	deniedUser     = "system:serviceaccount:default:nosy"
	metricsPath    = "/metrics"
	handlerMessage = "metrics from the wrapped handler"
)

// fakeAPIServer answers TokenReviews from a map of token to user and
// SubjectAccessReviews from a map of user name to allowed, and counts the reviews.
type fakeAPIServer struct {
	mu             sync.Mutex
	users          map[string]authenticationv1.UserInfo
	allowed        map[string]bool
	tokenReviewErr error
	accessErr      error
	tokenReviews   int
	accessReviews  int
	reviewedTokens []string
	accessSpecs    []authorizationv1.SubjectAccessReviewSpec
}

// newFakeAPIServer returns a clientset whose reviews fakeAPIServer answers. It knows
// allowedToken (allowedUser, who may get /metrics) and deniedToken (deniedUser, who may
// not).
func newFakeAPIServer() (*fake.Clientset, *fakeAPIServer) {
	s := &fakeAPIServer{
		users: map[string]authenticationv1.UserInfo{
			allowedToken: {Username: allowedUser, UID: "uid-prometheus", Groups: []string{"system:serviceaccounts", "system:authenticated"}},
			deniedToken:  {Username: deniedUser, UID: "uid-nosy", Groups: []string{"system:authenticated"}},
		},
		allowed: map[string]bool{allowedUser: true, deniedUser: false},
	}
	kube := fake.NewClientset()
	kube.PrependReactor("create", "tokenreviews", func(action k8stesting.Action) (bool, runtime.Object, error) {
		review := action.(k8stesting.CreateAction).GetObject().(*authenticationv1.TokenReview)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.tokenReviews++
		s.reviewedTokens = append(s.reviewedTokens, review.Spec.Token)
		if s.tokenReviewErr != nil {
			return true, nil, s.tokenReviewErr
		}
		out := review.DeepCopy()
		if user, ok := s.users[review.Spec.Token]; ok {
			out.Status = authenticationv1.TokenReviewStatus{Authenticated: true, User: *user.DeepCopy()}
		}
		return true, out, nil
	})
	kube.PrependReactor("create", "subjectaccessreviews", func(action k8stesting.Action) (bool, runtime.Object, error) {
		review := action.(k8stesting.CreateAction).GetObject().(*authorizationv1.SubjectAccessReview)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.accessReviews++
		s.accessSpecs = append(s.accessSpecs, *review.Spec.DeepCopy())
		if s.accessErr != nil {
			return true, nil, s.accessErr
		}
		out := review.DeepCopy()
		if s.allowed[review.Spec.User] {
			out.Status = authorizationv1.SubjectAccessReviewStatus{Allowed: true, Reason: "test grants it"}
		} else {
			out.Status = authorizationv1.SubjectAccessReviewStatus{Reason: "test does not grant it"}
		}
		return true, out, nil
	})
	return kube, s
}

// counts returns how many TokenReviews and SubjectAccessReviews were made.
func (s *fakeAPIServer) counts() (tokenReviews, accessReviews int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokenReviews, s.accessReviews
}

func (s *fakeAPIServer) setErrors(tokenReviewErr, accessErr error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenReviewErr, s.accessErr = tokenReviewErr, accessErr
}

func (s *fakeAPIServer) setAllowed(user string, allowed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.allowed[user] = allowed
}

func (s *fakeAPIServer) setUser(token string, user authenticationv1.UserInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[token] = user
}

// recordingHandler is the handler behind the filter; it counts the requests it gets.
type recordingHandler struct {
	mu    sync.Mutex
	calls int
}

func (h *recordingHandler) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	h.mu.Lock()
	h.calls++
	h.mu.Unlock()
	_, _ = io.WriteString(w, handlerMessage)
}

func (h *recordingHandler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

// fakeClock is a settable time source for answerCache.now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2030, time.January, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// sendRequest sends one request through handler and returns the status and body.
func sendRequest(t *testing.T, handler http.Handler, method, authorization string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(method, metricsPath, nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	body, err := io.ReadAll(rec.Result().Body)
	if err != nil {
		t.Fatalf("reading the response body: %v", err)
	}
	return rec.Code, string(body)
}

// expectReviews fails the test unless the fake apiserver got exactly the given numbers of
// reviews.
func expectReviews(t *testing.T, api *fakeAPIServer, tokenReviews, accessReviews int) {
	t.Helper()
	gotTR, gotSAR := api.counts()
	if gotTR != tokenReviews || gotSAR != accessReviews {
		t.Errorf("reviews made: %d TokenReviews and %d SubjectAccessReviews, want %d and %d", gotTR, gotSAR, tokenReviews, accessReviews)
	}
}

func TestAccessFilterWrap(t *testing.T) {
	cases := []struct {
		name          string
		method        string
		authorization string
		// wantBody lists strings the body must contain.
		wantBody          []string
		wantCode          int
		wantTokenReviews  int
		wantAccessReviews int
		wantHandlerRan    bool
		// wantReviewedToken is the token the TokenReview must carry, when one is made.
		wantReviewedToken string
	}{
		{
			name:     "no Authorization header",
			method:   http.MethodGet,
			wantCode: http.StatusUnauthorized,
		},
		{
			name:          "basic credentials",
			method:        http.MethodGet,
			authorization: "Basic " + "YWRtaW46c2VjcmV0",
			wantCode:      http.StatusUnauthorized,
		},
		{
			name:          "bearer scheme without a token",
			method:        http.MethodGet,
			authorization: "Bearer   ",
			wantCode:      http.StatusUnauthorized,
		},
		{
			name:          "bare token without a scheme",
			method:        http.MethodGet,
			authorization: allowedToken,
			wantCode:      http.StatusUnauthorized,
		},
		{
			name:              "token the apiserver does not know",
			method:            http.MethodGet,
			authorization:     "Bearer " + unknownToken,
			wantCode:          http.StatusUnauthorized,
			wantTokenReviews:  1,
			wantReviewedToken: unknownToken,
		},
		{
			name:              "user without the right",
			method:            http.MethodGet,
			authorization:     "Bearer " + deniedToken,
			wantCode:          http.StatusForbidden,
			wantBody:          []string{deniedUser, metricsPath},
			wantTokenReviews:  1,
			wantAccessReviews: 1,
			wantReviewedToken: deniedToken,
		},
		{
			name:              "allowed user",
			method:            http.MethodGet,
			authorization:     "Bearer " + allowedToken,
			wantCode:          http.StatusOK,
			wantBody:          []string{handlerMessage},
			wantTokenReviews:  1,
			wantAccessReviews: 1,
			wantHandlerRan:    true,
			wantReviewedToken: allowedToken,
		},
		{
			name:              "allowed user, lower-case scheme",
			method:            http.MethodGet,
			authorization:     "bearer " + allowedToken,
			wantCode:          http.StatusOK,
			wantBody:          []string{handlerMessage},
			wantTokenReviews:  1,
			wantAccessReviews: 1,
			wantHandlerRan:    true,
			wantReviewedToken: allowedToken,
		},
		{
			name:              "allowed user, HEAD",
			method:            http.MethodHead,
			authorization:     "Bearer " + allowedToken,
			wantCode:          http.StatusOK,
			wantTokenReviews:  1,
			wantAccessReviews: 1,
			wantHandlerRan:    true,
			wantReviewedToken: allowedToken,
		},
		{
			name:          "POST",
			method:        http.MethodPost,
			authorization: "Bearer " + allowedToken,
			wantCode:      http.StatusMethodNotAllowed,
		},
		{
			name:          "DELETE",
			method:        http.MethodDelete,
			authorization: "Bearer " + allowedToken,
			wantCode:      http.StatusMethodNotAllowed,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kube, api := newFakeAPIServer()
			next := &recordingHandler{}
			handler := newAccessFilter(kube).wrap(next)

			code, body := sendRequest(t, handler, tc.method, tc.authorization)

			if code != tc.wantCode {
				t.Errorf("status %d, want %d (body %q)", code, tc.wantCode, body)
			}
			for _, want := range tc.wantBody {
				if !strings.Contains(body, want) {
					t.Errorf("body %q does not contain %q", body, want)
				}
			}
			for _, token := range []string{allowedToken, deniedToken, unknownToken} {
				if strings.Contains(body, token) {
					t.Errorf("body %q contains the token %q", body, token)
				}
			}
			expectReviews(t, api, tc.wantTokenReviews, tc.wantAccessReviews)
			if ran := next.count() > 0; ran != tc.wantHandlerRan {
				t.Errorf("wrapped handler ran: %v, want %v", ran, tc.wantHandlerRan)
			}
			if tc.wantReviewedToken != "" {
				api.mu.Lock()
				reviewed := append([]string(nil), api.reviewedTokens...)
				api.mu.Unlock()
				if len(reviewed) != 1 || reviewed[0] != tc.wantReviewedToken {
					t.Errorf("TokenReviews carried tokens %q, want [%q]", reviewed, tc.wantReviewedToken)
				}
			}
		})
	}
}

func TestAccessFilterMethodNotAllowedHeader(t *testing.T) {
	kube, _ := newFakeAPIServer()
	handler := newAccessFilter(kube).wrap(&recordingHandler{})
	req := httptest.NewRequest(http.MethodPut, metricsPath, nil)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("status %d, want %d", rec.Code, http.StatusMethodNotAllowed)
	}
	if got := rec.Header().Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow header %q, want %q", got, "GET, HEAD")
	}
}

// The apiserver failing a review is a 503, and not remembered: the next request asks
// again and, the apiserver being back, gets through.
func TestAccessFilterReviewErrorsAreNotCached(t *testing.T) {
	type reviews struct{ tokenReviews, accessReviews int }
	cases := []struct {
		name           string
		tokenReviewErr error
		accessErr      error
		wantBody       string
		// Reviews made in total after the first failing request, after the second failing
		// request and after the request once the apiserver answers again.
		afterFirst, afterSecond, afterRecovery reviews
	}{
		{
			name:           "TokenReview fails",
			tokenReviewErr: errors.New("apiserver unreachable"),
			wantBody:       "could not authenticate",
			afterFirst:     reviews{1, 0},
			afterSecond:    reviews{2, 0},
			afterRecovery:  reviews{3, 1},
		},
		{
			name:       "SubjectAccessReview fails",
			accessErr:  errors.New("apiserver unreachable"),
			wantBody:   "could not authorize",
			afterFirst: reviews{1, 1},
			// The user is remembered; only the access review is made again.
			afterSecond:   reviews{1, 2},
			afterRecovery: reviews{1, 3},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kube, api := newFakeAPIServer()
			next := &recordingHandler{}
			handler := newAccessFilter(kube).wrap(next)
			api.setErrors(tc.tokenReviewErr, tc.accessErr)

			for i, want := range []reviews{tc.afterFirst, tc.afterSecond} {
				code, body := sendRequest(t, handler, http.MethodGet, "Bearer "+allowedToken)
				if code != http.StatusServiceUnavailable {
					t.Errorf("request %d: status %d while the apiserver fails, want %d (body %q)", i+1, code, http.StatusServiceUnavailable, body)
				}
				if !strings.Contains(body, tc.wantBody) {
					t.Errorf("request %d: body %q does not contain %q", i+1, body, tc.wantBody)
				}
				if strings.Contains(body, allowedToken) {
					t.Errorf("request %d: body %q contains the token", i+1, body)
				}
				expectReviews(t, api, want.tokenReviews, want.accessReviews)
			}
			if next.count() != 0 {
				t.Errorf("wrapped handler ran while the apiserver fails")
			}

			api.setErrors(nil, nil)
			code, body := sendRequest(t, handler, http.MethodGet, "Bearer "+allowedToken)
			if code != http.StatusOK {
				t.Errorf("status %d once the apiserver answers, want %d (body %q)", code, http.StatusOK, body)
			}
			if next.count() != 1 {
				t.Errorf("wrapped handler ran %d times, want once", next.count())
			}
			expectReviews(t, api, tc.afterRecovery.tokenReviews, tc.afterRecovery.accessReviews)
		})
	}
}

// The SubjectAccessReview asks whether the user the token belongs to, with its UID, groups
// and extra, may get the non-resource URL /metrics.
func TestAccessFilterSubjectAccessReviewSpec(t *testing.T) {
	const token = "extra-token-91d0aa"
	cases := []struct {
		name string
		user authenticationv1.UserInfo
		want authorizationv1.SubjectAccessReviewSpec
	}{
		{
			name: "user with extra",
			user: authenticationv1.UserInfo{
				Username: "alice", UID: "uid-alice",
				Groups: []string{"sre", "system:authenticated"},
				Extra: map[string]authenticationv1.ExtraValue{
					"scopes": {"metrics", "read"},
					"team":   {"observability"},
				},
			},
			want: authorizationv1.SubjectAccessReviewSpec{
				User: "alice", UID: "uid-alice",
				Groups: []string{"sre", "system:authenticated"},
				Extra: map[string]authorizationv1.ExtraValue{
					"scopes": {"metrics", "read"},
					"team":   {"observability"},
				},
				NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"},
			},
		},
		{
			name: "user without extra",
			user: authenticationv1.UserInfo{Username: "bob", UID: "uid-bob", Groups: []string{"system:authenticated"}},
			want: authorizationv1.SubjectAccessReviewSpec{
				User: "bob", UID: "uid-bob",
				Groups:                []string{"system:authenticated"},
				NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kube, api := newFakeAPIServer()
			api.setUser(token, tc.user)
			api.setAllowed(tc.user.Username, true)
			handler := newAccessFilter(kube).wrap(&recordingHandler{})

			if code, body := sendRequest(t, handler, http.MethodGet, "Bearer "+token); code != http.StatusOK {
				t.Fatalf("status %d, want %d (body %q)", code, http.StatusOK, body)
			}
			api.mu.Lock()
			specs := append([]authorizationv1.SubjectAccessReviewSpec(nil), api.accessSpecs...)
			api.mu.Unlock()
			if len(specs) != 1 {
				t.Fatalf("%d SubjectAccessReviews made, want 1", len(specs))
			}
			got := specs[0]
			if got.ResourceAttributes != nil {
				t.Errorf("ResourceAttributes %v, want none", got.ResourceAttributes)
			}
			if len(got.Extra) == 0 && len(tc.want.Extra) == 0 {
				got.Extra = tc.want.Extra // nil and empty mean the same
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("SubjectAccessReview spec\n got %v\nwant %v", got.String(), tc.want.String())
			}
		})
	}
}

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

// A full cache does not grow: a new answer is dropped while all are live, and stored once
// expired ones can be forgotten.
func TestAnswerCacheBounds(t *testing.T) {
	const shortLived = 10
	clock := newFakeClock()
	c := newAnswerCache[int]()
	c.now = clock.Now
	key := func(i int) string { return fmt.Sprintf("key-%d", i) }
	for i := 0; i < answerCacheSize; i++ {
		ttl := time.Hour
		if i < shortLived {
			ttl = time.Second
		}
		c.put(key(i), i, ttl)
	}
	if got := len(c.answers); got != answerCacheSize {
		t.Fatalf("%d answers stored, want %d", got, answerCacheSize)
	}
	for _, i := range []int{0, shortLived, answerCacheSize - 1} {
		if v, ok := c.get(key(i)); !ok || v != i {
			t.Errorf("get(%q) = %d, %v; want %d, true", key(i), v, ok, i)
		}
	}

	// Full of live answers: the new one is not kept.
	c.put("new", -1, time.Hour)
	if v, ok := c.get("new"); ok {
		t.Errorf("get(new) = %d, true on a full cache; want it not stored", v)
	}
	if got := len(c.answers); got != answerCacheSize {
		t.Errorf("%d answers stored after a put on a full cache, want %d", got, answerCacheSize)
	}

	// Once the short-lived answers expired, they make room.
	clock.set(clock.Now().Add(time.Second))
	c.put("new", -1, time.Hour)
	if v, ok := c.get("new"); !ok || v != -1 {
		t.Errorf("get(new) = %d, %v after answers expired; want -1, true", v, ok)
	}
	if got, want := len(c.answers), answerCacheSize-shortLived+1; got != want {
		t.Errorf("%d answers stored after expired ones made room, want %d", got, want)
	}
	for i := 0; i < shortLived; i++ {
		if _, ok := c.answers[key(i)]; ok {
			t.Errorf("expired answer %q still stored", key(i))
		}
	}
	for _, i := range []int{shortLived, answerCacheSize - 1} {
		if v, ok := c.get(key(i)); !ok || v != i {
			t.Errorf("live answer get(%q) = %d, %v; want %d, true", key(i), v, ok, i)
		}
	}
}

// An answer is not returned from its expiry on, and is returned just before.
func TestAnswerCacheExpiry(t *testing.T) {
	clock := newFakeClock()
	start := clock.Now()
	c := newAnswerCache[string]()
	c.now = clock.Now
	c.put("k", "v", 10*time.Second)
	if v, ok := c.get("k"); !ok || v != "v" {
		t.Errorf("get right after put = %q, %v; want v, true", v, ok)
	}
	clock.set(start.Add(10*time.Second - time.Nanosecond))
	if v, ok := c.get("k"); !ok || v != "v" {
		t.Errorf("get just before expiry = %q, %v; want v, true", v, ok)
	}
	clock.set(start.Add(10 * time.Second))
	if v, ok := c.get("k"); ok {
		t.Errorf("get at expiry = %q, true; want nothing", v)
	}
	if _, ok := c.get("missing"); ok {
		t.Errorf("get of a key never put found an answer")
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
