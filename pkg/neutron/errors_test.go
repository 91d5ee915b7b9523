package neutron

import (
	"errors"
	"net/url"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
)

func TestWrapErrorClassifiesNeutronAnswers(t *testing.T) {
	body := func(typ, msg string) []byte {
		return []byte(`{"NeutronError": {"type": "` + typ + `", "message": "` + msg + `", "detail": ""}}`)
	}
	tests := []struct {
		name     string
		code     int
		body     []byte
		wantKind Kind
		wantType string
	}{
		{"not found", 404, body("NetworkNotFound", "Network x could not be found."), KindNotFound, "NetworkNotFound"},
		{"subnet in use", 409, body("SubnetInUse", "One or more ports have an IP allocation from this subnet."), KindInUse, "SubnetInUse"},
		{"network in use", 409, body("NetworkInUse", "There are one or more ports still in use on the network"), KindInUse, "NetworkInUse"},
		{"over quota", 409, body("OverQuota", "Quota exceeded for resources: ['network']."), KindOverQuota, "OverQuota"},
		{"gateway conflict", 409, body("GatewayConflictWithAllocationPools", "Gateway ip conflicts with allocation pool"), KindConflict, "GatewayConflictWithAllocationPools"},
		{"bad request", 400, body("InvalidInput", "Invalid input for operation: Gateway is not valid on subnet."), KindRejected, "InvalidInput"},
		{"forbidden", 403, body("PolicyNotAuthorized", "not allowed"), KindRejected, "PolicyNotAuthorized"},
		{"server error", 500, []byte("<html>oops</html>"), KindUnavailable, ""},
		{"unavailable", 503, nil, KindUnavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := gophercloud.ErrUnexpectedResponseCode{Actual: tt.code, Body: tt.body}
			err := wrapError("some op", raw)
			var ne *Error
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
	if KindOf(err) != KindUnavailable {
		t.Errorf("kind = %v, want Unavailable", KindOf(err))
	}
	if wrapError("x", nil) != nil {
		t.Error("nil error wrapped into non-nil")
	}
	if IsNotFound(nil) {
		t.Error("IsNotFound(nil) = true")
	}
}

func TestOwnerMarks(t *testing.T) {
	o := Owner{ClusterID: "c1", Namespace: "ns", Name: "net", UID: "u1"}
	if !o.HasTags([]string{"other", "k8s-cluster=c1", "k8s-uid=u1"}) {
		t.Error("HasTags false for a resource carrying both tags")
	}
	if o.HasTags([]string{"k8s-cluster=c1"}) {
		t.Error("HasTags true without the owner tag")
	}
	if uid, ok := OwnerUID(o.Tags()); !ok || uid != "u1" {
		t.Errorf("OwnerUID = %q, %v", uid, ok)
	}
	if got := o.ResourceName(); got != "k8s_ns_net" {
		t.Errorf("ResourceName = %q", got)
	}
	for _, bad := range []string{"", "a,b", "has space", string(make([]byte, MaxClusterIDLength+1))} {
		if ValidateClusterID(bad) == nil {
			t.Errorf("ValidateClusterID(%q) accepted", bad)
		}
	}
	if err := ValidateClusterID("0b5f7c6e-2f4b-4a5e-9a49-6c1d0e8b7a11"); err != nil {
		t.Errorf("a UID cluster ID rejected: %v", err)
	}
}
