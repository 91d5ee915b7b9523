package registry

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

	"github.com/gophercloud/gophercloud/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

const (
	testSecret   = "team-a/openstack"
	testAuthURL  = "https://keystone.example.com:5000/v3"
	testPassword = "s3cr3t-Pa55"
	// evilURL is where a crafted file would send the controller; no message shows it.
	evilURL = "http://169.254.169.254/evil"
)

func policyForTest(t testing.TB) Policy {
	t.Helper()
	a, err := ParseAuthURLs([]string{testAuthURL})
	if err != nil {
		t.Fatal(err)
	}
	return Policy{AuthURLs: a}
}

func cloudsYAML(auth string, extra ...string) []byte {
	return []byte("clouds:\n  team-a:\n    auth:\n" + auth + "    region_name: RegionOne\n" + strings.Join(extra, ""))
}

const passwordAuth = "      auth_url: " + testAuthURL + "\n      username: alice\n      password: " + testPassword +
	"\n      project_name: team-a\n      user_domain_name: Default\n      project_domain_name: Default\n"

const appCredAuth = "      auth_url: " + testAuthURL + "\n      application_credential_id: 0123abcd\n      application_credential_secret: " + testPassword + "\n"

const tokenAuth = "      auth_url: " + testAuthURL + "\n      token: " + testPassword + "\n      project_id: p-1\n"

func TestParseCloudAcceptsEachMethod(t *testing.T) {
	for _, tt := range []struct {
		name, auth, authType, method, rejected, principal string
	}{
		{"password", passwordAuth, "", "password", samplecrdv1.ReasonPasswordRejected,
			testAuthURL + ` user_domain_name="default" username="alice"`},
		{"v3password", passwordAuth, "    auth_type: v3password\n", "password", samplecrdv1.ReasonPasswordRejected,
			testAuthURL + ` user_domain_name="default" username="alice"`},
		{"application credential", appCredAuth, "    auth_type: v3applicationcredential\n", "application credential", samplecrdv1.ReasonApplicationCredentialRejected,
			testAuthURL + ` application_credential_id="0123abcd"`},
		{"token", tokenAuth, "    auth_type: v3token\n", "token", samplecrdv1.ReasonCredentialsRejected,
			testAuthURL + " token_sha256="},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(tt.auth, tt.authType)}, "team-a", policyForTest(t))
			if err != nil {
				t.Fatalf("ParseCloud: %v", err)
			}
			if c.Method != tt.method || c.RejectedReason() != tt.rejected {
				t.Errorf("method %q, rejected reason %q; want %q, %q", c.Method, c.RejectedReason(), tt.method, tt.rejected)
			}
			if c.Auth.IdentityEndpoint != testAuthURL || c.AuthURL != testAuthURL || c.Endpoint.Region != "RegionOne" || c.Region != "RegionOne" {
				t.Errorf("auth URL %q (%q), region %q (%q)", c.Auth.IdentityEndpoint, c.AuthURL, c.Endpoint.Region, c.Region)
			}
			if c.Interface != "public" || c.Endpoint.Availability != gophercloud.AvailabilityPublic {
				t.Errorf("interface %q, availability %q", c.Interface, c.Endpoint.Availability)
			}
			if !strings.HasPrefix(c.Principal, tt.principal) || strings.Contains(c.Principal, testPassword) {
				t.Errorf("principal %q, want %q", c.Principal, tt.principal)
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

// TestParseCloudReadsAHorizonFile: the clouds.yaml OpenStack's dashboard hands out.
func TestParseCloudReadsAHorizonFile(t *testing.T) {
	doc := `clouds:
  openstack:
    auth:
      auth_url: https://KEYSTONE.example.com:5000/v3/
      username: "alice"
      password: "` + testPassword + `"
      project_id: 9f0ae2e6fbd7445a
      project_name: "team-a"
      user_domain_name: "Default"
    region_name: "RegionOne"
    interface: "internal"
    identity_api_version: 3
`
	c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: []byte(doc)}, "openstack", policyForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	if c.Auth.IdentityEndpoint != testAuthURL || c.Interface != "internal" || c.Endpoint.Availability != gophercloud.AvailabilityInternal {
		t.Errorf("auth URL %q, interface %q", c.Auth.IdentityEndpoint, c.Interface)
	}
	if c.Auth.Scope == nil || c.Auth.Scope.ProjectID != "9f0ae2e6fbd7445a" || c.Auth.DomainName != "Default" {
		t.Errorf("auth %+v, scope %+v", c.Auth, c.Auth.Scope)
	}
}

// TestParseCloudReadsOpenstacksdkSpellings: tenant_* stand for project_*, and
// default_domain is the domain of a user or project given none.
func TestParseCloudReadsOpenstacksdkSpellings(t *testing.T) {
	auth := "      auth_url: " + testAuthURL + "\n      username: alice\n      password: " + testPassword +
		"\n      tenant_name: team-a\n      default_domain: d-1\n"
	c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(auth)}, "team-a", policyForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	want := gophercloud.AuthScope{ProjectName: "team-a", DomainID: "d-1"}
	if c.Auth.TenantName != "team-a" || c.Auth.DomainID != "d-1" || c.Auth.Scope == nil || *c.Auth.Scope != want {
		t.Errorf("auth %+v, scope %+v", c.Auth, c.Auth.Scope)
	}
	if c.Principal != testAuthURL+` user_domain_id="d-1" username="alice"` {
		t.Errorf("principal %q", c.Principal)
	}
}

func TestPrincipalNamesTheAccount(t *testing.T) {
	for _, tt := range []struct{ auth, authType, want string }{
		{"      user_id: 0a1b-2c3d\n      password: x\n", "", testAuthURL + ` user_id="0a1b-2c3d"`},
		{"      application_credential_name: ci\n      application_credential_secret: x\n      username: bob\n      user_domain_id: d\n",
			"    auth_type: v3applicationcredential\n", testAuthURL + ` application_credential_name="ci" user_domain_id="d" username="bob"`},
		{"      application_credential_name: ci\n      application_credential_secret: x\n      user_id: u-2\n",
			"    auth_type: v3applicationcredential\n", testAuthURL + ` application_credential_name="ci" user_id="u-2"`},
		{"      username: 'a\" b'\n      password: x\n      domain_name: D\n", "", testAuthURL + ` user_domain_name="d" username="a\" b"`},
	} {
		c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML("      auth_url: "+testAuthURL+"\n"+tt.auth, tt.authType)}, "team-a", policyForTest(t))
		if err != nil {
			t.Fatalf("%s: %v", tt.want, err)
		}
		if c.Principal != tt.want {
			t.Errorf("principal %s\nwant      %s", c.Principal, tt.want)
		}
	}
}

// TestParseCloudRefusals gives every bad input its reason, and checks that the message
// names the place and quotes no value: not the password, nor a crafted URL.
func TestParseCloudRefusals(t *testing.T) {
	yaml := func(doc string) map[string][]byte { return map[string][]byte{KeyCloudsYAML: []byte(doc)} }
	withAuth := func(auth string, extra ...string) map[string][]byte {
		return map[string][]byte{KeyCloudsYAML: cloudsYAML(auth, extra...)}
	}
	invalid, files, notAllowed := samplecrdv1.ReasonCloudsYAMLInvalid, samplecrdv1.ReasonCredentialsFileRefused, samplecrdv1.ReasonAuthURLNotAllowed
	for _, tt := range []struct {
		name   string
		data   map[string][]byte
		reason string
		says   string
	}{
		{"no key", map[string][]byte{"other": []byte("x")}, samplecrdv1.ReasonCredentialsKeyMissing, "Secret team-a/openstack has no key clouds.yaml"},
		{"empty key", yaml(" \n"), samplecrdv1.ReasonCredentialsKeyMissing, "has no key clouds.yaml (or it is empty)"},
		{"too big", yaml("clouds: {}\n" + strings.Repeat("#"+testPassword+"\n", MaxCloudsYAMLBytes/len(testPassword))), invalid,
			"bytes, more than the 65536 this controller reads; keep only the clouds in use"},
		{"syntax", yaml("clouds:\n  a: b: " + testPassword + "\n"), invalid, "is not a valid clouds.yaml: syntax error at line 2"},
		{"wrong type", yaml("clouds:\n  team-a:\n    auth:\n      password: [" + testPassword + "]\n"), invalid,
			`key auth.password of cloud "team-a" must be a single value, not a mapping or a list (line 4)`},

		// One parser reads a key another ignores: each spelling of a known key but the
		// exact one is refused.
		{"AUTH_URL beside auth_url", withAuth(passwordAuth + "      AUTH_URL: " + evilURL + "\n"), invalid,
			`key auth.AUTH_URL of cloud "team-a" differs from the known key auth.auth_url only by case (line 10)`},
		{"AUTH_URL alone", withAuth(strings.Replace(passwordAuth, "auth_url", "AUTH_URL", 1)), invalid,
			`key auth.AUTH_URL of cloud "team-a" differs from the known key auth.auth_url only by case`},
		{"auth_urL", withAuth(strings.Replace(passwordAuth, "auth_url", "auth_urL", 1)), invalid, "differs from the known key auth.auth_url only by case"},
		{"long s in password", withAuth(strings.Replace(passwordAuth, "password", "pa\u017fsword", 1)), invalid,
			`key auth."pa\u017fsword" of cloud "team-a" differs from the known key auth.password only by case`},
		{"Kelvin sign in key", withAuth(passwordAuth, "    \u212aey: /etc/kubernetes/pki/apiserver.key\n"), invalid,
			`key "\u212aey" of cloud "team-a" differs from the known key key only by case`},
		{"Cacert", withAuth(passwordAuth, "    Cacert: /etc/kubernetes/pki/ca.crt\n"), invalid, `key Cacert of cloud "team-a" differs from the known key cacert only by case`},
		{"Auth", yaml("clouds:\n  team-a:\n    Auth:\n" + passwordAuth), invalid, `key Auth of cloud "team-a" differs from the known key auth only by case`},
		{"Clouds", yaml("Clouds:\n  team-a: {}\n"), invalid, "key Clouds differs from the known key clouds only by case"},
		{"duplicate auth_url", withAuth(passwordAuth + "      auth_url: " + evilURL + "\n"), invalid,
			`key auth.auth_url of cloud "team-a" appears twice (lines 4 and 10)`},
		{"duplicate cloud", yaml("clouds:\n  team-a:\n    auth: {auth_url: " + testAuthURL + "}\n  team-a:\n    auth: {auth_url: " + evilURL + "}\n"), invalid,
			`cloud "team-a" appears twice (lines 2 and 4)`},
		{"unknown key", withAuth(passwordAuth, "    api_timeout: 30\n"), invalid, `key api_timeout of cloud "team-a" is not a key this controller knows (line 11)`},
		{"trust", withAuth(passwordAuth + "      trust_id: t\n"), invalid, `key auth.trust_id of cloud "team-a" is not supported by this controller`},
		{"merge key", yaml("base: &b {auth_url: " + evilURL + "}\nclouds:\n  team-a:\n    auth:\n      <<: *b\n"), invalid, "key base is not a key this controller knows"},
		{"merge key in auth", yaml("clouds:\n  team-a:\n    auth:\n      <<: {auth_url: " + evilURL + "}\n"), invalid, `a key of cloud "team-a" is a merge key (<<) at line 4`},
		{"anchor", yaml("clouds:\n  team-a:\n    auth: &a\n      auth_url: " + testAuthURL + "\n  b:\n    auth: *a\n"), invalid,
			`key auth of cloud "team-a" sets an anchor (&) at line 3`},
		{"binary tag", withAuth(strings.Replace(passwordAuth, testAuthURL, "!!binary aHR0cDovLzE2OS4yNTQuMTY5LjI1NC9ldmls", 1)), invalid,
			`key auth.auth_url of cloud "team-a" has a YAML tag (!...) at line 4`},
		{"non-string key", withAuth(passwordAuth + "      1: x\n"), invalid, `a key of cloud "team-a" at line 10 is not a string`},
		{"two documents", yaml(string(cloudsYAML(passwordAuth)) + "---\n" + string(cloudsYAML(passwordAuth))), invalid, "holds more than one YAML document"},
		{"null password", withAuth(strings.Replace(passwordAuth, testPassword, "~", 1)), invalid, `key auth.password of cloud "team-a" has no value (line 6)`},
		{"too many clouds", yaml("clouds:\n" + manyClouds(MaxClouds+1)), invalid, "it holds 65 clouds, more than the 64 this controller reads"},

		{"no such cloud", withAuth(passwordAuth), samplecrdv1.ReasonCloudNotFound, `has no cloud "team-b" (clouds in it: team-a)`},
		{"no such cloud among many", yaml("clouds:\n" + manyClouds(12)), samplecrdv1.ReasonCloudNotFound,
			`has no cloud "team-b" (clouds in it: caa, cab, cac, cad, cae and 7 more)`},

		{"cacert path", withAuth(passwordAuth, "    cacert: /etc/kubernetes/pki/ca.crt\n"), files,
			`cloud "team-a" in key clouds.yaml of Secret team-a/openstack sets cacert, which would make the controller read a file of its own host; remove it (a private CA goes, as PEM, into the Secret's key cacert)`},
		{"empty cacert path", withAuth(passwordAuth, "    cacert: ''\n"), files, "sets cacert, which would make"},
		{"client key path", withAuth(passwordAuth, "    key: /var/run/secrets/key\n    cert: /a\n"), files, "sets cert, key, which would make"},
		{"profile", withAuth(passwordAuth, "    profile: vexxhost\n"), files, "sets profile"},
		{"cloud", withAuth(passwordAuth, "    cloud: vexxhost\n"), files, "sets cloud"},

		{"auth_url not allowed", withAuth(strings.Replace(passwordAuth, testAuthURL, "http://169.254.169.254/v3", 1)), notAllowed,
			"authenticates at http://169.254.169.254/v3, which this controller does not allow (allowed: https://keystone.example.com:5000/v3)"},
		{"auth_url with user info", withAuth(strings.Replace(passwordAuth, "https://", "https://alice:"+testPassword+"@", 1)), notAllowed,
			`the auth.auth_url of cloud "team-a" in key clouds.yaml of Secret team-a/openstack carries user info (user@ or user:password@ before the host), which this controller refuses`},
		{"auth_url with a query", withAuth(strings.Replace(passwordAuth, "/v3", "/v3?"+testPassword, 1)), notAllowed, "has a query or a fragment"},
		{"auth_url with a trailing dot", withAuth(strings.Replace(passwordAuth, "example.com", "example.com.", 1)), notAllowed,
			"authenticates at https://keystone.example.com.:5000/v3, which this controller does not allow"},
		{"auth_url with a backslash", withAuth(strings.Replace(passwordAuth, testAuthURL, `'https://keystone.example.com:5000\@169.254.169.254/v3'`, 1)), notAllowed, "holds a backslash"},
		{"auth_url percent-encoded", withAuth(strings.Replace(passwordAuth, "keystone.", "keystone%c3%a9.", 1)), notAllowed, "has a percent-encoded host"},
		{"auth_url with a newline", withAuth(strings.Replace(passwordAuth, testAuthURL, `"`+testAuthURL+`\n"`, 1)), notAllowed, "holds whitespace, a control or a non-ASCII character"},
		{"no auth_url", yaml("clouds:\n  team-a:\n    auth:\n      password: " + testPassword + "\n"), invalid, "has no auth.auth_url"},
		{"no auth", yaml("clouds:\n  team-a:\n    region_name: r\n"), invalid, "has no auth.auth_url"},

		{"unsupported auth_type", withAuth(passwordAuth, "    auth_type: v3oidcpassword\n"), invalid, "sets an auth_type this controller does not support"},
		{"auth_type in capitals", withAuth(passwordAuth, "    auth_type: Password\n"), invalid, "sets an auth_type this controller does not support"},
		{"application credential without its auth_type", withAuth(appCredAuth), invalid,
			"sets auth.application_credential_id, which does not go with auth_type password (the default); remove it, or set auth_type v3applicationcredential"},
		{"password beside an application credential", withAuth(appCredAuth+"      password: "+testPassword+"\n", "    auth_type: v3applicationcredential\n"), invalid,
			"sets auth.password, which does not go with auth_type v3applicationcredential"},
		{"token beside a password", withAuth(passwordAuth + "      token: " + testPassword + "\n"), invalid, "sets auth.token, which does not go with auth_type password"},
		{"no password", withAuth(strings.Replace(passwordAuth, testPassword, "''", 1)), invalid, "has no auth.password (auth_type password (the default))"},
		{"no secret", withAuth("      auth_url: "+testAuthURL+"\n      application_credential_id: 0123abcd\n", "    auth_type: v3applicationcredential\n"), invalid,
			"has no auth.application_credential_secret"},
		{"project and tenant", withAuth(passwordAuth + "      tenant_name: other\n"), invalid, "sets both auth.project_name and auth.tenant_name; keep project_name"},
		{"system scope", withAuth(passwordAuth + "      system_scope: " + testPassword + "\n"), invalid, "sets auth.system_scope to other than all"},
		{"user without domain", withAuth(strings.Replace(passwordAuth, "      user_domain_name: Default\n", "", 1)), invalid,
			"cannot authenticate as written: auth.username needs exactly one user domain"},
		{"user ID and name", withAuth(passwordAuth + "      user_id: u\n"), invalid, "cannot authenticate as written: set exactly one of auth.username and auth.user_id"},
		{"interface", withAuth(passwordAuth, "    interface: "+testPassword+"\n"), invalid, "sets interface to other than public, internal or admin"},
		{"interface and endpoint_type", withAuth(passwordAuth, "    interface: public\n    endpoint_type: internalURL\n"), invalid,
			"sets interface and endpoint_type to different interfaces"},
		{"bad cacert", map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth), KeyCACert: []byte("not a certificate")}, samplecrdv1.ReasonCACertInvalid,
			"key cacert of Secret team-a/openstack holds no PEM certificate"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cloud := "team-a"
			if tt.reason == samplecrdv1.ReasonCloudNotFound {
				cloud = "team-b"
			}
			_, err := ParseCloud(testSecret, tt.data, cloud, policyForTest(t))
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("err = %v, want a *registry.Error", err)
			}
			if e.Reason != tt.reason || !strings.Contains(e.Message, tt.says) {
				t.Errorf("got %s: %q\nwant %s: containing %q", e.Reason, e.Message, tt.reason, tt.says)
			}
			for _, secret := range []string{testPassword, evilURL, "/etc/", "/var/"} {
				if strings.Contains(e.Message, secret) || (e.Err != nil && strings.Contains(e.Err.Error(), secret)) {
					t.Errorf("message quotes a value (%s): %q", secret, e.Message)
				}
			}
			if !e.Terminal() {
				t.Errorf("reason %s should wait for the Secret to change", e.Reason)
			}
		})
	}
}

func TestParseCloudTrustsTheSecretsCA(t *testing.T) {
	c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth), KeyCACert: selfSignedPEM(t)}, "team-a", policyForTest(t))
	if err != nil {
		t.Fatalf("ParseCloud: %v", err)
	}
	if c.TLS == nil || c.TLS.RootCAs == nil || c.TLS.InsecureSkipVerify {
		t.Fatalf("TLS config %+v, want the Secret's CA as roots, verified", c.TLS)
	}
}

// TestCloudsFileServesEachCloudOfOneParse: one parse per Secret version serves every
// cloud of it; a refused cloud does not refuse its neighbours.
func TestCloudsFileServesEachCloudOfOneParse(t *testing.T) {
	doc := "clouds:\n  team-a:\n    auth:\n" + passwordAuth + "  team-b:\n    auth:\n" + appCredAuth + "    auth_type: v3applicationcredential\n" +
		"  local:\n    cacert: /etc/ssl/ca.pem\n    auth:\n" + passwordAuth
	f, err := ParseCloudsFile(testSecret, map[string][]byte{KeyCloudsYAML: []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	a, errA := f.Cloud("team-a", policyForTest(t))
	b, errB := f.Cloud("team-b", policyForTest(t))
	if errA != nil || errB != nil || a.Method != "password" || b.Method != "application credential" {
		t.Fatalf("team-a %q %v, team-b %q %v", a.Method, errA, b.Method, errB)
	}
	if a.Fingerprint == b.Fingerprint {
		t.Errorf("two clouds share fingerprint %s", a.Fingerprint)
	}
	if _, err := f.Cloud("local", policyForTest(t)); err == nil {
		t.Error("the cloud naming a file was served")
	}
	if f.Size() < len(doc) || f.Size() > 8*len(doc) {
		t.Errorf("size %d for a %d-byte file", f.Size(), len(doc))
	}
}

func TestCloudsFileSizeGrowsWithTheContent(t *testing.T) {
	small, err := ParseCloudsFile(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth)})
	if err != nil {
		t.Fatal(err)
	}
	big, err := ParseCloudsFile(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(strings.Replace(passwordAuth, testPassword, strings.Repeat("x", 20000), 1)), KeyCACert: selfSignedPEM(t)})
	if err != nil {
		t.Fatal(err)
	}
	if small.Size() <= 0 || big.Size() < small.Size()+20000 {
		t.Errorf("sizes %d and %d", small.Size(), big.Size())
	}
}

func TestFingerprintFollowsTheContent(t *testing.T) {
	parse := func(data map[string][]byte) string {
		c, err := ParseCloud(testSecret, data, "team-a", policyForTest(t))
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

func selfSignedPEM(t testing.TB) []byte {
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

// One Keystone account spelt in other case is one principal: Keystone's SQL backend
// compares names without case, and its lockout counts the account, not the spelling.
func TestPrincipalIgnoresTheCaseOfNames(t *testing.T) {
	principal := func(username, domain string) string {
		auth := "      auth_url: " + testAuthURL + "\n      username: " + username + "\n      password: x\n      user_domain_name: " + domain + "\n      project_name: p\n      project_domain_name: Default\n"
		c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(auth)}, "team-a", policyForTest(t))
		if err != nil {
			t.Fatal(err)
		}
		return c.Principal
	}
	if a, b := principal("alice", "Default"), principal("ALICE", "default"); a != b {
		t.Errorf("principals differ: %s and %s", a, b)
	}
}
