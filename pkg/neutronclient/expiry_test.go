package neutronclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// fakeKeystone issues tokens whose user's password expires at passwordExpiresAt (JSON:
// null or a quoted time), for an application credential when appCredExpiresAt is not
// "", which it then answers with.
func fakeKeystone(t *testing.T, passwordExpiresAt *atomic.Value, appCredExpiresAt string) (*httptest.Server, *atomic.Int32) {
	var reads atomic.Int32
	var keystone *httptest.Server
	keystone = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/v3/auth/tokens":
			appCred := ""
			if appCredExpiresAt != "" {
				appCred = `, "application_credential": {"id": "ac-1", "name": "ci", "restricted": true}`
			}
			w.Header().Set("X-Subject-Token", fmt.Sprintf("token-%d", time.Now().UnixNano()))
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"token": {"expires_at": "2099-01-01T00:00:00Z", "user": {"id": "u-1", "name": "alice", "password_expires_at": %s}%s,
				"project": {"id": "p1", "name": "team-a"}, "catalog": [{"type": "network", "endpoints": [{"interface": "public", "region": "RegionOne", "url": "%s/neutron"}]}]}}`,
				passwordExpiresAt.Load(), appCred, keystone.URL)
		case r.Method == http.MethodGet && r.URL.Path == "/v3/users/u-1/application_credentials/ac-1":
			reads.Add(1)
			fmt.Fprintf(w, `{"application_credential": {"id": "ac-1", "name": "ci", "expires_at": %s}}`, appCredExpiresAt)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(keystone.Close)
	return keystone, &reads
}

func connectTo(t *testing.T, keystone *httptest.Server) *Client {
	t.Helper()
	c, err := ConnectKeystone(context.Background(), Credentials{Name: "test cloud",
		Auth: gophercloud.AuthOptions{IdentityEndpoint: keystone.URL + "/v3/", Username: "alice", Password: "pw", DomainName: "Default",
			Scope: &gophercloud.AuthScope{ProjectName: "team-a", DomainName: "Default"}}}, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A password's expiry comes with each token: a new token brings a new one.
func TestPasswordExpiryIsReadFromTheToken(t *testing.T) {
	var expires atomic.Value
	expires.Store(`"2026-12-03T10:00:00.000000"`)
	keystone, _ := fakeKeystone(t, &expires, "")
	c := connectTo(t, keystone)
	got, ok := c.CredentialExpiry()
	want := neutron.CredentialExpiry{Kind: neutron.ExpiryPassword, What: "password of Keystone user alice", At: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)}
	if !ok || got != want || c.ExpiryError() != nil {
		t.Fatalf("CredentialExpiry() = %+v, %v (%v), want %+v", got, ok, c.ExpiryError(), want)
	}

	expires.Store(`null`) // the password was changed to one that does not expire
	if err := c.sc.ProviderClient.Reauthenticate(context.Background(), c.sc.ProviderClient.Token()); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.CredentialExpiry(); ok {
		t.Errorf("after a token without password_expires_at: %+v, want no expiry", got)
	}
}

// An application credential's expiry is read once, with its own token.
func TestApplicationCredentialExpiryIsReadOnce(t *testing.T) {
	var expires atomic.Value
	expires.Store(`null`)
	keystone, reads := fakeKeystone(t, &expires, `"2026-12-01T00:00:00.000000"`)
	c := connectTo(t, keystone)
	for range 3 {
		got, ok := c.CredentialExpiry()
		if !ok || got.Kind != neutron.ExpiryApplicationCredential || !got.At.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) ||
			got.What != "application credential ci (ID ac-1) of Keystone user alice" {
			t.Fatalf("CredentialExpiry() = %+v, %v (%v)", got, ok, c.ExpiryError())
		}
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("Keystone was asked for the application credential %d times, want once", n)
	}

	never, _ := fakeKeystone(t, &expires, `null`)
	if got, ok := connectTo(t, never).CredentialExpiry(); ok {
		t.Errorf("an application credential without expires_at: %+v, want no expiry", got)
	}
}
