package endpoints

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
)

// filterResponse is what the filter answered one request.
type filterResponse struct {
	code       int
	retryAfter string
	body       string
}

// serveToken sends one GET with token through handler; it may run outside the test's
// goroutine.
func serveToken(ctx context.Context, handler http.Handler, token string) filterResponse {
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, metricsPath, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return filterResponse{code: rec.Code, retryAfter: rec.Header().Get("Retry-After"), body: string(body)}
}

// serveInBackground sends the request from a goroutine of its own.
func serveInBackground(ctx context.Context, handler http.Handler, token string) <-chan filterResponse {
	out := make(chan filterResponse, 1)
	go func() { out <- serveToken(ctx, handler, token) }()
	return out
}

// receive waits for an answer; a filter that blocks fails the test.
func receive(t *testing.T, answer <-chan filterResponse) filterResponse {
	t.Helper()
	select {
	case r := <-answer:
		return r
	case <-time.After(testWait):
		t.Fatalf("no answer within %v", testWait)
		return filterResponse{}
	}
}

// gatedFilter returns a filter whose reviews pass gate, before the fake apiserver.
func gatedFilter(t *testing.T) (*accessFilter, *fakeAPIServer, *reviewGate) {
	kube, api := newFakeAPIServer()
	gate := newReviewGate(t)
	return newAccessFilter(gatedClientset{kube, gate}), api, gate
}

// fillReviewBound starts maxReviewsInFlight requests, each with a new token of the allowed
// user, and returns once their TokenReviews are held at the gate.
func fillReviewBound(t *testing.T, ctx context.Context, handler http.Handler, api *fakeAPIServer, gate *reviewGate) []<-chan filterResponse {
	t.Helper()
	gate.hold()
	held := make([]<-chan filterResponse, maxReviewsInFlight)
	for i := range held {
		token := fmt.Sprintf("held-token-%d", i)
		api.setUser(token, api.users[allowedToken])
		held[i] = serveInBackground(ctx, handler, token)
	}
	gate.waitEntered(t, maxReviewsInFlight)
	return held
}

// expectAllowed fails the test unless every answer is 200.
func expectAllowed(t *testing.T, answers []<-chan filterResponse) {
	t.Helper()
	for i, answer := range answers {
		if r := receive(t, answer); r.code != http.StatusOK {
			t.Errorf("held request %d: status %d, want %d (body %q)", i, r.code, http.StatusOK, r.body)
		}
	}
}

// Many callers at once: maxReviewsInFlight of them are reviewed, the others get 429 with
// Retry-After at once, without a review, and get through once the reviews are done.
func TestAccessFilterRefusesPastReviewBound(t *testing.T) {
	const callers = 5 * maxReviewsInFlight
	filter, api, gate := gatedFilter(t)
	next := &recordingHandler{}
	handler := filter.wrap(next)
	gate.hold()

	type answer struct {
		caller int
		filterResponse
	}
	answers := make(chan answer, callers)
	token := func(caller int) string { return fmt.Sprintf("caller-token-%d", caller) }
	for i := range callers {
		api.setUser(token(i), api.users[allowedToken])
		go func() { answers <- answer{i, serveToken(t.Context(), handler, token(i))} }()
	}
	gate.waitEntered(t, maxReviewsInFlight)

	// The callers past the bound are answered while the reviews are held.
	var refused []int
	for len(refused) < callers-maxReviewsInFlight {
		select {
		case a := <-answers:
			if a.code != http.StatusTooManyRequests {
				t.Fatalf("caller %d: status %d while the reviews are held, want %d (body %q)", a.caller, a.code, http.StatusTooManyRequests, a.body)
			}
			if a.retryAfter != "1" {
				t.Errorf("caller %d: Retry-After %q, want %q", a.caller, a.retryAfter, "1")
			}
			refused = append(refused, a.caller)
		case <-time.After(testWait):
			t.Fatalf("%d of %d callers past the bound answered while the reviews are held", len(refused), callers-maxReviewsInFlight)
		}
	}
	gate.noneEntered(t)
	expectReviews(t, api, 0, 0) // the held reviews have not reached the apiserver yet

	gate.release()
	for range maxReviewsInFlight {
		select {
		case a := <-answers:
			if a.code != http.StatusOK {
				t.Errorf("reviewed caller %d: status %d, want %d (body %q)", a.caller, a.code, http.StatusOK, a.body)
			}
		case <-time.After(testWait):
			t.Fatalf("the reviewed callers were not answered once the reviews were let through")
		}
	}
	if r := serveToken(t.Context(), handler, token(refused[0])); r.code != http.StatusOK {
		t.Errorf("a refused caller retrying once the reviews are done: status %d, want %d (body %q)", r.code, http.StatusOK, r.body)
	}
	if got, _ := api.counts(); got != maxReviewsInFlight+1 {
		t.Errorf("%d TokenReviews made, want %d: one per reviewed caller", got, maxReviewsInFlight+1)
	}
	if got := next.count(); got != maxReviewsInFlight+1 {
		t.Errorf("wrapped handler ran %d times, want %d", got, maxReviewsInFlight+1)
	}
}

// A caller whose token is remembered but whose right is not needs a SubjectAccessReview:
// past the bound it is refused too.
func TestAccessFilterRefusesAccessReviewPastBound(t *testing.T) {
	filter, api, gate := gatedFilter(t)
	handler := filter.wrap(&recordingHandler{})
	user := authenticationv1.UserInfo{Username: "dave", Groups: []string{"system:authenticated"}}
	const token = "remembered-token-7e21"
	filter.users.put(string(digest(token)), &user, time.Hour)
	api.setAllowed(user.Username, true)

	held := fillReviewBound(t, t.Context(), handler, api, gate)
	if r := serveToken(t.Context(), handler, token); r.code != http.StatusTooManyRequests || r.retryAfter != "1" {
		t.Errorf("status %d, Retry-After %q; want %d, 1 (body %q)", r.code, r.retryAfter, http.StatusTooManyRequests, r.body)
	}
	gate.noneEntered(t)
	gate.release()
	expectAllowed(t, held)
	if r := serveToken(t.Context(), handler, token); r.code != http.StatusOK {
		t.Errorf("once the reviews are done: status %d, want %d (body %q)", r.code, http.StatusOK, r.body)
	}
}

// Callers answered from the caches take no slot: they get their answer while the bound is
// reached.
func TestAccessFilterServesCachedCallersWhileBoundIsFull(t *testing.T) {
	filter, api, gate := gatedFilter(t)
	next := &recordingHandler{}
	handler := filter.wrap(next)
	callers := []struct {
		token    string
		wantCode int
	}{
		{allowedToken, http.StatusOK},
		{deniedToken, http.StatusForbidden},
		{unknownToken, http.StatusUnauthorized},
	}
	for _, c := range callers {
		if r := serveToken(t.Context(), handler, c.token); r.code != c.wantCode {
			t.Fatalf("warming the cache with %s: status %d, want %d", c.token, r.code, c.wantCode)
		}
	}
	expectReviews(t, api, 3, 2)

	held := fillReviewBound(t, t.Context(), handler, api, gate)
	for _, c := range callers {
		if r := serveToken(t.Context(), handler, c.token); r.code != c.wantCode {
			t.Errorf("%s while the bound is reached: status %d, want %d (body %q)", c.token, r.code, c.wantCode, r.body)
		}
	}
	gate.noneEntered(t)
	expectReviews(t, api, 3, 2)
	if got := next.count(); got != 2 {
		t.Errorf("wrapped handler ran %d times, want 2", got)
	}
	gate.release()
	expectAllowed(t, held)
}

// Every review gives its slot back, however it ends: more requests than there are slots,
// one after another, are all reviewed, and no slot is taken afterwards.
func TestAccessFilterFreesReviewSlots(t *testing.T) {
	const requests = 3 * maxReviewsInFlight
	apiserverDown := errors.New("apiserver unreachable")
	cases := []struct {
		name string
		// setup readies the fake apiserver for token, before its request.
		setup func(api *fakeAPIServer, token string)
		// hold keeps the reviews at the gate until they time out, or the caller leaves.
		hold         bool
		callerLeaves bool
		wantCode     int
	}{
		{
			name:     "allowed",
			setup:    func(api *fakeAPIServer, token string) { api.setUser(token, api.users[allowedToken]) },
			wantCode: http.StatusOK,
		},
		{
			name:     "token not accepted",
			setup:    func(*fakeAPIServer, string) {},
			wantCode: http.StatusUnauthorized,
		},
		{
			name:     "user without the right",
			setup:    func(api *fakeAPIServer, token string) { api.setUser(token, api.users[deniedToken]) },
			wantCode: http.StatusForbidden,
		},
		{
			name:     "TokenReview fails",
			setup:    func(api *fakeAPIServer, _ string) { api.setErrors(apiserverDown, nil) },
			wantCode: http.StatusServiceUnavailable,
		},
		{
			name: "SubjectAccessReview fails",
			setup: func(api *fakeAPIServer, token string) {
				api.setUser(token, api.users[allowedToken])
				api.setErrors(nil, apiserverDown)
			},
			wantCode: http.StatusServiceUnavailable,
		},
		{
			name:     "review times out",
			setup:    func(*fakeAPIServer, string) {},
			hold:     true,
			wantCode: http.StatusServiceUnavailable,
		},
		{
			name:         "caller goes away during the review",
			setup:        func(*fakeAPIServer, string) {},
			hold:         true,
			callerLeaves: true,
			wantCode:     http.StatusServiceUnavailable,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			filter, api, gate := gatedFilter(t)
			handler := filter.wrap(&recordingHandler{})
			if tc.hold {
				gate.hold()
				if !tc.callerLeaves {
					filter.reviewTimeout = 20 * time.Millisecond
				}
			}
			for i := range requests {
				token := fmt.Sprintf("slot-token-%d", i)
				tc.setup(api, token)
				ctx, cancel := context.WithCancel(t.Context())
				answer := serveInBackground(ctx, handler, token)
				if tc.hold {
					gate.waitEntered(t, 1)
				}
				if tc.callerLeaves {
					cancel()
				}
				r := receive(t, answer)
				cancel()
				if r.code != tc.wantCode {
					t.Fatalf("request %d: status %d, want %d (body %q)", i+1, r.code, tc.wantCode, r.body)
				}
			}
			if n := len(filter.reviews); n != 0 {
				t.Errorf("%d slots taken after all reviews ended, want 0", n)
			}
		})
	}
}

// A flood of refused callers makes a line per refusalLogInterval, with the refusals since
// the previous line.
func TestAccessFilterLogsRefusalsOncePerInterval(t *testing.T) {
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.BufferLogs(true)))
	ctx := klog.NewContext(t.Context(), logger)
	filter, api, gate := gatedFilter(t)
	clock := newFakeClock()
	start := clock.Now()
	filter.refusals.now = clock.Now
	handler := filter.wrap(&recordingHandler{})
	held := fillReviewBound(t, ctx, handler, api, gate)

	refusedLines := func() []int {
		var counts []int
		for _, entry := range logger.GetSink().(ktesting.Underlier).GetBuffer().Data() {
			if entry.Message != "Refused metrics requests: too many callers being reviewed at once" {
				continue
			}
			kv := entry.ParameterKVList
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == "refused" {
					counts = append(counts, kv[i+1].(int))
				}
			}
		}
		return counts
	}
	steps := []struct {
		after     time.Duration
		refusals  int
		wantLines []int
	}{
		{0, 20, []int{1}},
		{5 * time.Second, 20, []int{1}},
		{refusalLogInterval - time.Nanosecond, 5, []int{1}},
		{refusalLogInterval, 1, []int{1, 45}},
		{refusalLogInterval + time.Second, 30, []int{1, 45}},
		{2 * refusalLogInterval, 3, []int{1, 45, 31}},
	}
	token := 0
	for _, step := range steps {
		clock.set(start.Add(step.after))
		for range step.refusals {
			token++
			if r := serveToken(ctx, handler, fmt.Sprintf("flood-token-%d", token)); r.code != http.StatusTooManyRequests {
				t.Fatalf("after %v: status %d, want %d", step.after, r.code, http.StatusTooManyRequests)
			}
		}
		if got := refusedLines(); fmt.Sprint(got) != fmt.Sprint(step.wantLines) {
			t.Errorf("after %v: lines with refused counts %v, want %v", step.after, got, step.wantLines)
		}
	}
	gate.release()
	expectAllowed(t, held)
}
