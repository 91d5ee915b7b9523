package endpoints

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	authorizationv1client "k8s.io/client-go/kubernetes/typed/authorization/v1"
)

// testWait bounds how long a test waits for something that should happen at once: a
// broken filter fails the test instead of hanging it.
const testWait = 10 * time.Second

// reviewGate holds TokenReviews and SubjectAccessReviews in flight while it is held: each
// waits until release or until its context ends, then goes on to the fake apiserver. A
// blocking reactor cannot: the fake clientset runs its reactors one at a time, under its
// lock, and ignores contexts.
type reviewGate struct {
	mu sync.Mutex
	// held is nil while reviews pass; they wait until it is closed.
	held chan struct{}
	// entered gets the kind of every review that waits at the gate.
	entered chan string
}

func newReviewGate(t *testing.T) *reviewGate {
	g := &reviewGate{entered: make(chan string, 1024)}
	t.Cleanup(g.release) // no review is left waiting when a test fails
	return g
}

// hold makes the reviews from now on wait.
func (g *reviewGate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held == nil {
		g.held = make(chan struct{})
	}
}

// release lets the waiting reviews, and those to come, through.
func (g *reviewGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held != nil {
		close(g.held)
		g.held = nil
	}
}

func (g *reviewGate) wait(ctx context.Context, kind string) error {
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	if held == nil {
		return nil
	}
	g.entered <- kind
	select {
	case <-held:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s held at the gate: %w", kind, ctx.Err())
	}
}

// waitEntered waits until n more reviews wait at the gate.
func (g *reviewGate) waitEntered(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-g.entered:
		case <-time.After(testWait):
			t.Fatalf("%d of %d reviews reached the gate within %v", i, n, testWait)
		}
	}
}

// noneEntered fails the test when a review reached the gate since the last waitEntered.
func (g *reviewGate) noneEntered(t *testing.T) {
	t.Helper()
	select {
	case kind := <-g.entered:
		t.Errorf("a %s was made past the bound", kind)
	default:
	}
}

// gatedClientset is a fake clientset whose reviews pass a reviewGate first.
type gatedClientset struct {
	*fake.Clientset
	gate *reviewGate
}

func (c gatedClientset) AuthenticationV1() authenticationv1client.AuthenticationV1Interface {
	return gatedAuthentication{c.Clientset.AuthenticationV1(), c.gate}
}

func (c gatedClientset) AuthorizationV1() authorizationv1client.AuthorizationV1Interface {
	return gatedAuthorization{c.Clientset.AuthorizationV1(), c.gate}
}

type gatedAuthentication struct {
	authenticationv1client.AuthenticationV1Interface
	gate *reviewGate
}

func (a gatedAuthentication) TokenReviews() authenticationv1client.TokenReviewInterface {
	return gatedTokenReviews{a.AuthenticationV1Interface.TokenReviews(), a.gate}
}

type gatedTokenReviews struct {
	authenticationv1client.TokenReviewInterface
	gate *reviewGate
}

func (r gatedTokenReviews) Create(ctx context.Context, review *authenticationv1.TokenReview, opts metav1.CreateOptions) (*authenticationv1.TokenReview, error) {
	if err := r.gate.wait(ctx, "TokenReview"); err != nil {
		return nil, err
	}
	return r.TokenReviewInterface.Create(ctx, review, opts)
}

type gatedAuthorization struct {
	authorizationv1client.AuthorizationV1Interface
	gate *reviewGate
}

func (a gatedAuthorization) SubjectAccessReviews() authorizationv1client.SubjectAccessReviewInterface {
	return gatedAccessReviews{a.AuthorizationV1Interface.SubjectAccessReviews(), a.gate}
}

type gatedAccessReviews struct {
	authorizationv1client.SubjectAccessReviewInterface
	gate *reviewGate
}

func (r gatedAccessReviews) Create(ctx context.Context, review *authorizationv1.SubjectAccessReview, opts metav1.CreateOptions) (*authorizationv1.SubjectAccessReview, error) {
	if err := r.gate.wait(ctx, "SubjectAccessReview"); err != nil {
		return nil, err
	}
	return r.SubjectAccessReviewInterface.Create(ctx, review, opts)
}
