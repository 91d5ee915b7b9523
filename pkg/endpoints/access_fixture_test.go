package endpoints

import (
	"io"
	"net/http"
	"net/http/httptest"
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
