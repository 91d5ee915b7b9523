package neutronclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/requestid"
)

// Every call carries the global request ID of its context and the versioned User-Agent;
// a failed call's error names the request ID Neutron answered with.
func TestCallsCarryTheRequestIDAndNameTheAnswer(t *testing.T) {
	var mu sync.Mutex
	var sent, agents []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Header.Get("X-OpenStack-Request-ID"))
		agents = append(agents, r.Header.Get("User-Agent"))
		mu.Unlock()
		w.Header().Set("X-Openstack-Request-Id", "req-0f0e0d0c-0b0a-4908-8706-050403020100")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		w.Write([]byte(`{"NeutronError": {"type": "OverQuota", "message": "Quota exceeded for resources: ['network'].", "detail": ""}}`))
	}))
	defer server.Close()
	c, err := ConnectEndpoint(server.URL, nil)
	if err != nil {
		t.Fatal(err)
	}

	ctx := requestid.NewContext(context.Background(), "req-12345678-1234-4234-8234-123456789abc")
	_, err = c.CreateNetwork(ctx, neutron.NetworkRequest{})
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != neutron.KindOverQuota || ne.RequestID != "req-0f0e0d0c-0b0a-4908-8706-050403020100" {
		t.Fatalf("error = %#v, want OverQuota answered by request req-0f0e0d0c-…", err)
	}
	if !strings.HasSuffix(err.Error(), "(Neutron request req-0f0e0d0c-0b0a-4908-8706-050403020100)") {
		t.Errorf("error text = %q, want it to name Neutron's request", err)
	}
	if err := c.Ping(context.Background()); err == nil {
		t.Fatal("ping of a server answering 409 succeeded")
	}
	if sent[0] != "req-12345678-1234-4234-8234-123456789abc" {
		t.Errorf("the call of a reconcile sent request ID %q, want the reconcile's", sent[0])
	}
	if !strings.HasPrefix(sent[1], "req-") || sent[1] == sent[0] {
		t.Errorf("a call outside any reconcile sent request ID %q, want a fresh one", sent[1])
	}
	for _, ua := range agents {
		if !strings.HasPrefix(ua, userAgent+" gophercloud/") || !strings.HasPrefix(ua, "network-controller/") {
			t.Errorf("User-Agent = %q, want %q followed by gophercloud's", ua, userAgent)
		}
	}
}
