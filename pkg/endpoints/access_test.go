package endpoints

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
)

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
