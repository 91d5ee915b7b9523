package endpoints

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// How long the apiserver's answers are kept. A scraper every 15 s then costs one
// TokenReview and one SubjectAccessReview a minute; a revoked role stops working within a
// minute, a granted one within 10 s.
const (
	authenticatedTTL   = time.Minute
	unauthenticatedTTL = 10 * time.Second
	allowedTTL         = time.Minute
	deniedTTL          = 10 * time.Second
	reviewTimeout      = 10 * time.Second
)

// accessFilter lets through only requests whose bearer token the apiserver authenticates
// (TokenReview) and whose user it allows to get the requested non-resource URL
// (SubjectAccessReview): the check kube-rbac-proxy and kubebuilder's scaffolds make.
// k8s.io/apiserver's delegating authenticator and authorizer make the same two reviews, but
// pull gRPC, OpenTelemetry and CEL into the binary and nearly double it (README,
// "Monitoring").
type accessFilter struct {
	kube  kubernetes.Interface
	users *answerCache[*authenticationv1.UserInfo]
	// Keyed by user and path: whether the user may get the path.
	rights *answerCache[bool]
	// reviews bounds the reviews in flight; answers from the caches take no slot.
	reviews reviewSlots
	// reviewTimeout is reviewTimeout; tests shorten it.
	reviewTimeout time.Duration
	// refusals spaces the log lines about requests refused past the bound.
	refusals *logThrottle
}

// newAccessFilter asks kube, with the controller's own credentials, about every caller:
// they need create on tokenreviews and subjectaccessreviews.
func newAccessFilter(kube kubernetes.Interface) *accessFilter {
	return &accessFilter{
		kube: kube, users: newAnswerCache[*authenticationv1.UserInfo](), rights: newAnswerCache[bool](),
		reviews: newReviewSlots(maxReviewsInFlight), reviewTimeout: reviewTimeout,
		refusals: newLogThrottle(refusalLogInterval),
	}
}

// wrap answers 401 without a valid bearer token, 403 to a user without the right, 429
// when the request needs a review while maxReviewsInFlight are made, 503 when the
// apiserver does not answer a review, and passes the rest to next.
func (f *accessFilter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		logger := klog.FromContext(r.Context()).WithValues("path", r.URL.Path, "remote", r.RemoteAddr)
		token, ok := bearerToken(r)
		if !ok {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		user, err := f.authenticate(r, token)
		if errors.Is(err, errTooManyReviews) {
			f.refuseTooManyReviews(w, r)
			return
		}
		if err != nil {
			logger.Error(err, "Could not review a metrics caller's token")
			http.Error(w, "Service Unavailable: could not authenticate the request", http.StatusServiceUnavailable)
			return
		}
		if user == nil {
			logger.V(2).Info("Refused a metrics request with a token the apiserver does not accept")
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		allowed, err := f.authorize(r, user)
		if errors.Is(err, errTooManyReviews) {
			f.refuseTooManyReviews(w, r)
			return
		}
		if err != nil {
			logger.Error(err, "Could not review a metrics caller's rights", "user", user.Username)
			http.Error(w, "Service Unavailable: could not authorize the request", http.StatusServiceUnavailable)
			return
		}
		if !allowed {
			logger.V(2).Info("Refused a metrics request", "user", user.Username)
			http.Error(w, fmt.Sprintf("Forbidden: user %q may not get %s", user.Username, r.URL.Path), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken returns the token of an "Authorization: Bearer" header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "bearer") && token != ""
}

// authenticate returns the user the token belongs to, or nil when the apiserver does not
// accept it, or errTooManyReviews. Only a digest of the token is kept.
func (f *accessFilter) authenticate(r *http.Request, token string) (*authenticationv1.UserInfo, error) {
	key := string(digest(token))
	if user, ok := f.users.get(key); ok {
		return user, nil
	}
	if !f.reviews.tryTake() {
		return nil, errTooManyReviews
	}
	defer f.reviews.free()
	ctx, cancel := context.WithTimeout(r.Context(), f.reviewTimeout)
	defer cancel()
	review, err := f.kube.AuthenticationV1().TokenReviews().Create(ctx, &authenticationv1.TokenReview{
		Spec: authenticationv1.TokenReviewSpec{Token: token},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating a TokenReview: %w", err)
	}
	if !review.Status.Authenticated {
		f.users.put(key, nil, unauthenticatedTTL)
		return nil, nil
	}
	f.users.put(key, &review.Status.User, authenticatedTTL)
	return &review.Status.User, nil
}

// authorize reports whether the user may get the request's path, or errTooManyReviews.
func (f *accessFilter) authorize(r *http.Request, user *authenticationv1.UserInfo) (bool, error) {
	spec := authorizationv1.SubjectAccessReviewSpec{
		User: user.Username, UID: user.UID, Groups: user.Groups,
		NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: r.URL.Path, Verb: "get"},
	}
	if len(user.Extra) > 0 {
		spec.Extra = make(map[string]authorizationv1.ExtraValue, len(user.Extra))
		for k, v := range user.Extra {
			spec.Extra[k] = authorizationv1.ExtraValue(v)
		}
	}
	// JSON, unlike spec.String(), keeps ["a", "b"] and ["a b"] apart.
	encoded, err := json.Marshal(spec)
	if err != nil {
		return false, fmt.Errorf("encoding a SubjectAccessReview: %w", err)
	}
	key := string(digest(string(encoded)))
	if allowed, ok := f.rights.get(key); ok {
		return allowed, nil
	}
	if !f.reviews.tryTake() {
		return false, errTooManyReviews
	}
	defer f.reviews.free()
	ctx, cancel := context.WithTimeout(r.Context(), f.reviewTimeout)
	defer cancel()
	review, err := f.kube.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{Spec: spec}, metav1.CreateOptions{})
	if err != nil {
		return false, fmt.Errorf("creating a SubjectAccessReview: %w", err)
	}
	allowed := review.Status.Allowed && !review.Status.Denied
	ttl := deniedTTL
	if allowed {
		ttl = allowedTTL
	}
	f.rights.put(key, allowed, ttl)
	return allowed, nil
}

func digest(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}
