package neutronclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func TestWrapErrorClassifiesNeutronAnswers(t *testing.T) {
	body := func(typ, msg string) []byte {
		return []byte(`{"NeutronError": {"type": "` + typ + `", "message": "` + msg + `", "detail": ""}}`)
	}
	tests := []struct {
		name     string
		code     int
		body     []byte
		wantKind neutron.Kind
		wantType string
	}{
		{"not found", 404, body("NetworkNotFound", "Network x could not be found."), neutron.KindNotFound, "NetworkNotFound"},
		{"subnet in use", 409, body("SubnetInUse", "One or more ports have an IP allocation from this subnet."), neutron.KindInUse, "SubnetInUse"},
		{"network in use", 409, body("NetworkInUse", "There are one or more ports still in use on the network"), neutron.KindInUse, "NetworkInUse"},
		{"over quota", 409, body("OverQuota", "Quota exceeded for resources: ['network']."), neutron.KindOverQuota, "OverQuota"},
		{"gateway conflict", 409, body("GatewayConflictWithAllocationPools", "Gateway ip conflicts with allocation pool"), neutron.KindConflict, "GatewayConflictWithAllocationPools"},
		{"bad request", 400, body("InvalidInput", "Invalid input for operation: Gateway is not valid on subnet."), neutron.KindRejected, "InvalidInput"},
		{"forbidden", 403, body("PolicyNotAuthorized", "not allowed"), neutron.KindRejected, "PolicyNotAuthorized"},
		{"subnet pool full", 500, body("SubnetAllocationError", "Failed to allocate subnet: Insufficient prefix space to allocate subnet size /64."), neutron.KindConflict, "SubnetAllocationError"},
		{"prefix length out of the pool's bounds", 400, body("MaxPrefixSubnetAllocationError", "Unable to allocate subnet with prefix length 70, maximum allowed prefix is 64."), neutron.KindRejected, "MaxPrefixSubnetAllocationError"},
		{"server error", 500, []byte("<html>oops</html>"), neutron.KindUnavailable, ""},
		{"unavailable", 503, nil, neutron.KindUnavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := gophercloud.ErrUnexpectedResponseCode{Actual: tt.code, Body: tt.body}
			err := wrapError("some op", raw)
			var ne *neutron.Error
			if !errors.As(err, &ne) {
				t.Fatalf("wrapError returned %T", err)
			}
			if ne.Kind != tt.wantKind || ne.Type != tt.wantType || ne.Code != tt.code {
				t.Errorf("got kind %v type %q code %d, want %v %q %d", ne.Kind, ne.Type, ne.Code, tt.wantKind, tt.wantType, tt.code)
			}
			if ne.Message == "" {
				t.Error("empty message")
			}
			var original gophercloud.ErrUnexpectedResponseCode
			if !errors.As(err, &original) || original.Actual != tt.code {
				t.Error("original gophercloud error not kept in the chain")
			}
		})
	}
}

func TestWrapErrorTreatsTransportFailuresAsUnavailable(t *testing.T) {
	err := wrapError("list networks", &url.Error{Op: "Get", URL: "http://127.0.0.1:1/", Err: errors.New("connection refused")})
	if neutron.KindOf(err) != neutron.KindUnavailable {
		t.Errorf("kind = %v, want Unavailable", neutron.KindOf(err))
	}
	if wrapError("x", nil) != nil {
		t.Error("nil error wrapped into non-nil")
	}
	if neutron.IsNotFound(nil) {
		t.Error("IsNotFound(nil) = true")
	}
}

func TestWrapErrorNamesKeystoneWhenReauthenticationFails(t *testing.T) {
	expired := gophercloud.ErrUnexpectedResponseCode{Actual: 401, Body: []byte(`{"error": {"code": 401, "message": "The request you have made requires authentication.", "title": "Unauthorized"}}`)}
	down := &url.Error{Op: "Post", URL: "http://127.0.0.1:5000/v3/auth/tokens", Err: errors.New("connection refused")}
	want := `Keystone could not issue a new token: Post "http://127.0.0.1:5000/v3/auth/tokens": connection refused`
	for _, raw := range []error{
		&gophercloud.ErrUnableToReauthenticate{ErrOriginal: expired, ErrReauth: down},
		gophercloud.ErrUnableToReauthenticate{ErrOriginal: expired, ErrReauth: down},
	} {
		var ne *neutron.Error
		if err := wrapError("create network", raw); !errors.As(err, &ne) {
			t.Fatalf("wrapError returned %T", err)
		}
		if ne.Kind != neutron.KindUnavailable {
			t.Errorf("kind = %v, want Unavailable", ne.Kind)
		}
		if ne.Message != want {
			t.Errorf("message = %q, want %q", ne.Message, want)
		}
	}
}

func TestWrapErrorReadsTheTokenMiddlewaresAnswer(t *testing.T) {
	body := []byte(`{"error": {"code": 503, "title": "Service Unavailable", "message": "The Keystone service is temporarily unavailable."}}`)
	err := wrapError("list networks", gophercloud.ErrUnexpectedResponseCode{Actual: 503, Body: body})
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != neutron.KindUnavailable || ne.Message != "The Keystone service is temporarily unavailable." {
		t.Errorf("got %#v", err)
	}
}

func TestWrapAuthErrorSeparatesRefusedCredentialsFromAnOutage(t *testing.T) {
	refused := gophercloud.ErrUnexpectedResponseCode{Actual: 401, Body: []byte(`{"error": {"code": 401, "message": "The request you have made requires authentication.", "title": "Unauthorized"}}`)}
	err := wrapAuthError("http://127.0.0.1:5000/v3", refused)
	if neutron.KindOf(err) != neutron.KindRejected {
		t.Errorf("kind of a 401 = %v, want Rejected", neutron.KindOf(err))
	}
	const want = "keystone authentication at http://127.0.0.1:5000/v3: 401 The request you have made requires authentication."
	if err.Error() != want {
		t.Errorf("message = %q, want %q", err.Error(), want)
	}
	down := &url.Error{Op: "Post", URL: "http://127.0.0.1:5000/v3/auth/tokens", Err: errors.New("connection refused")}
	if k := neutron.KindOf(wrapAuthError("http://127.0.0.1:5000/v3", down)); k != neutron.KindUnavailable {
		t.Errorf("kind of an unreachable Keystone = %v, want Unavailable", k)
	}
}

func TestRefusedReauthenticationStopsTheClient(t *testing.T) {
	expired := gophercloud.ErrUnexpectedResponseCode{Actual: 401, Body: []byte(`{"error": {"code": 401, "message": "The request you have made requires authentication."}}`)}
	c := NewClient(nil, nil)
	err := c.call(context.Background(), "list networks", func() error {
		return &gophercloud.ErrUnableToReauthenticate{ErrOriginal: expired, ErrReauth: expired}
	})
	if !neutron.IsCredentialsRefused(err) || neutron.KindOf(err) != neutron.KindRejected {
		t.Fatalf("err = %v, want Keystone's refusal", err)
	}
	if c.Refused() == nil {
		t.Fatal("Refused() = nil after Keystone refused to renew the token")
	}
	called := false
	if err := c.call(context.Background(), "create network", func() error { called = true; return nil }); !neutron.IsCredentialsRefused(err) {
		t.Errorf("the next call returned %v, want the refusal", err)
	}
	if called {
		t.Error("the next call was sent: each would make gophercloud ask Keystone again")
	}

	// An unreachable Keystone is no refusal: the client keeps working.
	down := &url.Error{Op: "Post", URL: "http://127.0.0.1:5000/v3/auth/tokens", Err: errors.New("connection refused")}
	c = NewClient(nil, nil)
	err = c.call(context.Background(), "list networks", func() error {
		return &gophercloud.ErrUnableToReauthenticate{ErrOriginal: expired, ErrReauth: down}
	})
	if neutron.IsCredentialsRefused(err) || c.Refused() != nil {
		t.Errorf("an unreachable Keystone stopped the client: %v", err)
	}
}

// A renewal deferred for its namespace's turn defers the call: it is not a failure of
// Neutron or Keystone.
func TestRenewalDeferredForItsTurnDefersTheCall(t *testing.T) {
	turn := &neutron.ThrottledError{Op: "token request of alice", Delay: time.Second, Turn: "team"}
	err := wrapError("create network", gophercloud.ErrUnableToReauthenticate{ErrOriginal: errors.New("401"), ErrReauth: fmt.Errorf("post: %w", turn)})
	if got, ok := neutron.AsThrottled(err); !ok || got != turn {
		t.Fatalf("wrapError = %v, want the *ThrottledError of the turn", err)
	}
	var ne *neutron.Error
	if errors.As(err, &ne) {
		t.Errorf("wrapError = %v, a *neutron.Error (%s): the status would call it a failure", err, ne.Kind)
	}
}
