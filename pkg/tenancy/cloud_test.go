package tenancy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

const (
	testSecret   = "team-a/openstack"
	testAuthURL  = "https://keystone.example.com:5000/v3"
	testPassword = "s3cr3t-Pa55"
)

func allowedForTest(t *testing.T) AuthURLs {
	t.Helper()
	a, err := ParseAuthURLs([]string{testAuthURL})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func cloudsYAML(auth string, extra ...string) []byte {
	return []byte("clouds:\n  team-a:\n    auth:\n" + auth + "    region_name: RegionOne\n" + strings.Join(extra, ""))
}

const passwordAuth = "      auth_url: " + testAuthURL + "\n      username: alice\n      password: " + testPassword +
	"\n      project_name: team-a\n      user_domain_name: Default\n      project_domain_name: Default\n"

const appCredAuth = "      auth_url: " + testAuthURL + "\n      application_credential_id: 0123abcd\n      application_credential_secret: " + testPassword + "\n"

func TestParseCloudAcceptsPasswordAndApplicationCredential(t *testing.T) {
	for _, tt := range []struct {
		name, auth, authType, method, rejected string
	}{
		{"password", passwordAuth, "", "password", samplecrdv1.ReasonPasswordRejected},
		{"application credential", appCredAuth, "    auth_type: v3applicationcredential\n", "application credential", samplecrdv1.ReasonApplicationCredentialRejected},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(tt.auth, tt.authType)}, "team-a", allowedForTest(t))
			if err != nil {
				t.Fatalf("ParseCloud: %v", err)
			}
			if c.Method != tt.method || c.RejectedReason() != tt.rejected {
				t.Errorf("method %q, rejected reason %q; want %q, %q", c.Method, c.RejectedReason(), tt.method, tt.rejected)
			}
			if c.Auth.IdentityEndpoint != testAuthURL || c.Endpoint.Region != "RegionOne" {
				t.Errorf("auth URL %q, region %q", c.Auth.IdentityEndpoint, c.Endpoint.Region)
			}
			if c.TLS != nil {
				t.Errorf("TLS config without a cacert key: %+v", c.TLS)
			}
			if c.Fingerprint == "" || strings.Contains(c.Name, testPassword) {
				t.Errorf("fingerprint %q, name %q", c.Fingerprint, c.Name)
			}
		})
	}
}

// TestParseCloudRefusals gives every bad input its reason, and checks that no message
// quotes the password.
func TestParseCloudRefusals(t *testing.T) {
	for _, tt := range []struct {
		name   string
		data   map[string][]byte
		cloud  string
		reason string
		says   string
	}{
		{"no key", map[string][]byte{"other": []byte("x")}, "team-a", samplecrdv1.ReasonCredentialsKeyMissing, "Secret team-a/openstack has no key clouds.yaml"},
		{"syntax", map[string][]byte{KeyCloudsYAML: []byte("clouds:\n  a: b: " + testPassword + "\n")}, "team-a", samplecrdv1.ReasonCloudsYAMLInvalid, "syntax error at line 2"},
		{"wrong type", map[string][]byte{KeyCloudsYAML: []byte("clouds:\n  team-a:\n    auth:\n      password: [" + testPassword + "]\n")}, "team-a", samplecrdv1.ReasonCloudsYAMLInvalid, "field clouds.auth.password has the wrong type"},
		{"no such cloud", map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth)}, "team-b", samplecrdv1.ReasonCloudNotFound, `has no cloud "team-b" (clouds in it: team-a)`},
		{"cacert path", map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth, "    cacert: /etc/kubernetes/pki/ca.crt\n")}, "team-a", samplecrdv1.ReasonCredentialsFileRefused, "sets cacert"},
		{"client key path", map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth, "    cert: /a\n    key: /var/run/secrets/key\n")}, "team-a", samplecrdv1.ReasonCredentialsFileRefused, "sets cert, key"},
		{"profile", map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth, "    profile: vexxhost\n")}, "team-a", samplecrdv1.ReasonCredentialsFileRefused, "sets profile"},
		{"auth_url not allowed", map[string][]byte{KeyCloudsYAML: cloudsYAML(strings.Replace(passwordAuth, testAuthURL, "http://169.254.169.254/v3", 1))}, "team-a", samplecrdv1.ReasonAuthURLNotAllowed, "authenticates at http://169.254.169.254/v3, which this controller does not allow (allowed: https://keystone.example.com:5000/v3)"},
		{"no auth_url", map[string][]byte{KeyCloudsYAML: []byte("clouds:\n  team-a:\n    auth:\n      password: " + testPassword + "\n")}, "team-a", samplecrdv1.ReasonCloudsYAMLInvalid, "has no auth.auth_url"},
		{"bad cacert", map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth), KeyCACert: []byte("not a certificate")}, "team-a", samplecrdv1.ReasonCACertInvalid, "key cacert of Secret team-a/openstack holds no PEM certificate"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCloud(testSecret, tt.data, tt.cloud, allowedForTest(t))
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("err = %v, want a *tenancy.Error", err)
			}
			if e.Reason != tt.reason || !strings.Contains(e.Message, tt.says) {
				t.Errorf("got %s: %q\nwant %s: containing %q", e.Reason, e.Message, tt.reason, tt.says)
			}
			if strings.Contains(e.Message, testPassword) {
				t.Errorf("message quotes the password: %q", e.Message)
			}
			if !e.Terminal() {
				t.Errorf("reason %s should wait for the Secret to change", e.Reason)
			}
		})
	}
}

func TestParseCloudTrustsTheSecretsCA(t *testing.T) {
	c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth), KeyCACert: selfSignedPEM(t)}, "team-a", allowedForTest(t))
	if err != nil {
		t.Fatalf("ParseCloud: %v", err)
	}
	if c.TLS == nil || c.TLS.RootCAs == nil || c.TLS.InsecureSkipVerify {
		t.Fatalf("TLS config %+v, want the Secret's CA as roots, verified", c.TLS)
	}
}

func TestFingerprintFollowsTheContent(t *testing.T) {
	parse := func(data map[string][]byte) string {
		c, err := ParseCloud(testSecret, data, "team-a", allowedForTest(t))
		if err != nil {
			t.Fatal(err)
		}
		return c.Fingerprint
	}
	base := parse(map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth)})
	if again := parse(map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth)}); again != base {
		t.Errorf("same content, fingerprints %s and %s", base, again)
	}
	rotated := parse(map[string][]byte{KeyCloudsYAML: cloudsYAML(strings.Replace(passwordAuth, testPassword, "n3w", 1))})
	withCA := parse(map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth), KeyCACert: selfSignedPEM(t)})
	if rotated == base || withCA == base {
		t.Errorf("changed content kept fingerprint %s (rotated %s, with CA %s)", base, rotated, withCA)
	}
}

func selfSignedPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
