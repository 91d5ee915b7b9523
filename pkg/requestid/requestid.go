// Package requestid carries OpenStack's global request ID: the controller makes one per
// reconcile and sends it with every call of that reconcile, and each service records it
// beside the request ID it answers with, so one ID finds the calls of one reconcile in
// every service's log.
package requestid

import (
	"context"
	"net/http"
	"regexp"

	"github.com/google/uuid"
)

// Header carries the global request ID to OpenStack; services answer with their own
// request ID in the same header.
const Header = "X-OpenStack-Request-ID"

type key struct{}

// New returns a fresh ID in the one form OpenStack accepts as a global request ID,
// "req-" and a UUID; services drop any other.
func New() string { return "req-" + uuid.NewString() }

// NewContext returns ctx carrying id.
func NewContext(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, key{}, id)
}

// FromContext returns the ID ctx carries, if any.
func FromContext(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(key{}).(string)
	return id, ok && id != ""
}

// answeredForm is the form of a request ID OpenStack's services answer with.
var answeredForm = regexp.MustCompile(`^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// Answered returns the request ID a service answered with: "" when none, or when the
// header holds anything but a request ID, which then goes into no message or log line.
func Answered(h http.Header) string {
	if id := h.Get(Header); answeredForm.MatchString(id) {
		return id
	}
	return ""
}

// Transport sends every request with the global request ID of its context, or a fresh
// one for a request made outside any reconcile, so every call can be traced.
type Transport struct{ Next http.RoundTripper }

func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	id, ok := FromContext(req.Context())
	if !ok {
		id = New()
	}
	// A RoundTripper must not change the caller's request.
	out := req.Clone(req.Context())
	out.Header.Set(Header, id)
	return t.Next.RoundTrip(out)
}
