package neutronclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
)

// A client that trusts the roots a credentials Secret chose lands in a Place that says
// so: it shares no store or budget with a client of the same project that does not.
func TestConnectKeystoneNamesTheTrustInThePlace(t *testing.T) {
	var keystone *httptest.Server
	keystone = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v3/auth/tokens" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Subject-Token", "token")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"token": {"expires_at": "2099-01-01T00:00:00Z", "user": {"id": "u-1", "name": "alice", "domain": {"id": "default"}}, "project": {"id": "p1", "name": "team-a", "domain": {"id": "default"}},
			"catalog": [{"type": "network", "endpoints": [{"interface": "public", "region": "RegionOne", "region_id": "RegionOne", "url": "%s/neutron"}]}]}}`, keystone.URL)
	}))
	keystone.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below
	keystone.StartTLS()
	defer keystone.Close()
	roots := x509.NewCertPool()
	roots.AddCert(keystone.Certificate())

	creds := Credentials{
		Name: "test cloud",
		Auth: gophercloud.AuthOptions{IdentityEndpoint: keystone.URL + "/v3/", Username: "alice", Password: "pw", DomainName: "Default",
			Scope: &gophercloud.AuthScope{ProjectName: "team-a", DomainName: "Default"}},
		Endpoint: gophercloud.EndpointOpts{Region: "RegionOne", Availability: gophercloud.AvailabilityPublic},
		TLS:      &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: roots},
		Trust:    "ca-sha256:0123",
	}
	gate := &recordingGate{}
	creds.Requester = TokenRequester{Account: "alice", Keystone: keystone.URL + "/v3", LockoutUser: "name:alice", Source: "ns/s", Turn: "ns"}
	c, err := ConnectKeystone(context.Background(), creds, gate.hooks())
	if err != nil {
		t.Fatalf("ConnectKeystone through the Secret's CA: %v", err)
	}
	if p := c.Place(); p.ProjectID != "p1" || p.Region != "RegionOne" || p.Trust != creds.Trust {
		t.Errorf("place %+v, want project p1 in RegionOne with trust %q", p, creds.Trust)
	}
	if u := c.User(); u != (TokenUser{ID: "u-1", Name: "alice", DomainID: "default"}) {
		t.Errorf("token user %+v, want u-1 alice of domain default", u)
	}
	if want := []string{"admit ns/s POST /v3/auth/tokens", "done 201", "authenticated ns/s u-1 alice"}; fmt.Sprint(gate.told) != fmt.Sprint(want) {
		t.Errorf("the hooks were told %q, want %q", gate.told, want)
	}

	creds.TLS = nil // the system's roots do not know the test server's certificate
	if _, err := ConnectKeystone(context.Background(), creds, Hooks{}); err == nil {
		t.Error("ConnectKeystone without the CA trusted the test server")
	}
}

// recordingGate records the Keystone requests that pass its hooks, whose, and the user
// the credentials authenticated as.
type recordingGate struct{ told []string }

func (g *recordingGate) hooks() Hooks {
	return Hooks{
		TokenRequests: func(next http.RoundTripper, who TokenRequester) http.RoundTripper {
			return roundTripper(func(req *http.Request) (*http.Response, error) {
				g.told = append(g.told, "admit "+who.Source+" "+req.Method+" "+req.URL.Path)
				resp, err := next.RoundTrip(req)
				if err == nil {
					g.told = append(g.told, fmt.Sprint("done ", resp.StatusCode))
				}
				return resp, err
			})
		},
		Authenticated: func(who TokenRequester, user TokenUser) {
			g.told = append(g.told, "authenticated "+who.Source+" "+user.ID+" "+user.Name)
		},
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
