package registry

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"go.yaml.in/yaml/v3"
	yamlv2 "gopkg.in/yaml.v2" // gophercloud's own reader of clouds.yaml
)

// fuzzAllowed are the auth URLs the fuzz target allows, normalized as the list stores them.
var fuzzAllowed = []string{testAuthURL, "http://[fd00::1]:5000/v3"}

// FuzzParseCloud feeds ParseCloud any clouds.yaml and checks, for every input:
//   - it does not panic;
//   - an accepted cloud authenticates at exactly (byte for byte) an allowed URL;
//   - no message quotes a secret of the file (password, application credential secret,
//     token) as any YAML reader decodes it;
//   - an accepted cloud is read the same by gophercloud's own lenient reader (yaml.v2,
//     clouds.Parse): no file keys, the same auth URL once normalized, the same user,
//     project, application credential, region and interface. No parser differential
//     survives acceptance.
func FuzzParseCloud(f *testing.F) {
	for _, name := range gophercloudEnv {
		f.Setenv(name, "")
	}
	for _, seed := range fuzzSeeds() {
		f.Add([]byte(seed))
	}
	allowed, err := ParseAuthURLs(fuzzAllowed)
	if err != nil {
		f.Fatal(err)
	}
	policy := Policy{AuthURLs: allowed}
	f.Fuzz(func(t *testing.T, doc []byte) {
		data := map[string][]byte{KeyCloudsYAML: doc}
		c, err := ParseCloud(testSecret, data, "team-a", policy)
		if err != nil {
			checkNoSecretInError(t, doc, err, func(doc []byte) error {
				_, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: doc}, "team-a", policy)
				return err
			})
			return
		}
		if !slices.Contains(fuzzAllowed, c.Auth.IdentityEndpoint) || c.AuthURL != c.Auth.IdentityEndpoint {
			t.Fatalf("accepted auth URL %q (AuthURL %q), allowed only %v", c.Auth.IdentityEndpoint, c.AuthURL, fuzzAllowed)
		}
		checkGophercloudReadsTheSame(t, doc, c)
	})
}

// checkNoSecretInError fails when an error's texts hold a secret value of doc. A secret
// found in a message is told apart from the same letters in the package's own text by
// parsing doc again with the secret rotated (a→b, 0→1, same length, same lines): a message
// that quotes the secret then quotes the rotated one instead.
func checkNoSecretInError(t *testing.T, doc []byte, err error, parse func([]byte) error) {
	texts := errorTexts(err)
	v := lenientValues(doc)
	for s := range v.secrets {
		lower := strings.ToLower(s)
		// A secret also written as a key or an ordinary value may appear as that.
		if len(s) < 4 || !containsAny(texts, s) || strings.Contains(v.public.String(), lower) {
			continue
		}
		if rotated := rotate(s); rotated != s && bytes.Contains(doc, []byte(s)) {
			again := parse(bytes.ReplaceAll(doc, []byte(s), []byte(rotated)))
			if again != nil && containsAny(errorTexts(again), s) {
				continue
			}
		} else if strings.Contains(packageText(), lower) {
			continue // written with escapes or in no letters: the package's words may hold it
		}
		t.Fatalf("message %q quotes the secret %q", texts, s)
	}
}

func errorTexts(err error) []string {
	texts := []string{err.Error()}
	if e, ok := AsError(err); ok && e.Err != nil {
		texts = append(texts, e.Err.Error())
	}
	return texts
}

func containsAny(texts []string, s string) bool {
	for _, text := range texts {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// rotate shifts each ASCII letter and digit of s by one (z to a, 9 to 0), keeping the rest.
func rotate(s string) string {
	return strings.Map(func(r rune) rune {
		for _, span := range [][2]rune{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}} {
			if r >= span[0] && r <= span[1] {
				return span[0] + (r-span[0]+1)%(span[1]-span[0]+1)
			}
		}
		return r
	}, s)
}

// packageText is the package's source but its tests, lower-cased: every piece of text a
// message is made of besides the file's keys and public values.
var packageText = sync.OnceValue(func() string {
	files, _ := filepath.Glob("*.go")
	var b strings.Builder
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			panic(err)
		}
		b.Write(bytes.ToLower(src))
	}
	return b.String()
})

// secretKeys are the keys whose values are secrets.
var secretKeys = []string{"password", "application_credential_secret", "token"}

// docValues are the values of a document as lenient readers decode it.
type docValues struct {
	// secrets are the values of secret keys.
	secrets map[string]bool
	// public holds every other key and value, lower-cased, one a line: those may rightly
	// appear in a message.
	public strings.Builder
	seen   map[string]bool
}

// lenientValues returns the values of doc as yaml.v3 and yaml.v2 decode it (aliases and
// merge keys expanded, keys of any case). Readers that fail or panic add nothing.
func lenientValues(doc []byte) *docValues {
	v := &docValues{secrets: map[string]bool{}, seen: map[string]bool{}}
	for _, s := range append([]string{testSecret, "team-a"}, fuzzAllowed...) {
		v.addPublic(s)
	}
	if len(doc) > MaxCloudsYAMLBytes {
		return v
	}
	collect := func(unmarshal func([]byte, any) error) {
		defer func() { _ = recover() }()
		var decoded any
		if unmarshal(doc, &decoded) == nil {
			v.walk(decoded, false)
		}
	}
	collect(yaml.Unmarshal)
	collect(yamlv2.Unmarshal)
	return v
}

func (v *docValues) addPublic(s string) {
	if !v.seen[s] {
		v.seen[s] = true
		v.public.WriteString(strings.ToLower(s) + "\n")
	}
}

func (v *docValues) walk(decoded any, secret bool) {
	switch d := decoded.(type) {
	case map[string]any:
		for k, e := range d {
			v.addPublic(k)
			v.walk(e, secret || isSecretKey(k))
		}
	case map[any]any:
		for k, e := range d {
			key := fmt.Sprint(k)
			v.addPublic(key)
			v.walk(e, secret || isSecretKey(key))
		}
	case []any:
		for _, e := range d {
			v.walk(e, secret)
		}
	case nil:
	default:
		if secret {
			v.secrets[fmt.Sprint(d)] = true
		} else {
			v.addPublic(fmt.Sprint(d))
		}
	}
}

func isSecretKey(key string) bool {
	folded, ok := foldToASCII(key)
	return ok && slices.Contains(secretKeys, folded)
}

// checkGophercloudReadsTheSame fails when gophercloud's reading of an accepted doc differs
// from the controller's.
func checkGophercloudReadsTheSame(t *testing.T, doc []byte, c Cloud) {
	var file clouds.Clouds
	if yamlv2.Unmarshal(doc, &file) != nil {
		return // gophercloud could not read it at all: nothing it would authenticate with
	}
	v2, ok := file.Clouds["team-a"]
	if !ok || v2.AuthInfo == nil {
		t.Fatalf("accepted, but yaml.v2 reads no cloud team-a or no auth in it: %+v", v2)
	}
	if v2.CACertFile != "" || v2.ClientCertFile != "" || v2.ClientKeyFile != "" || v2.Profile != "" || v2.Cloud != "" {
		t.Fatalf("accepted, but yaml.v2 reads files or a profile: %+v", v2)
	}
	if insecure := v2.Verify != nil && !*v2.Verify; insecure != (c.TLS != nil && c.TLS.InsecureSkipVerify) {
		t.Fatalf("accepted with TLS %+v, but yaml.v2 reads verify %v", c.TLS, v2.Verify)
	}
	theirs, endpoint, err := parseWithGophercloud(doc, "team-a", v2.RegionName, firstOf(v2.EndpointType, v2.Interface, "public"))
	if err != nil {
		return
	}
	if n, err := NormalizeAuthURL(theirs.IdentityEndpoint); err != nil || n != c.Auth.IdentityEndpoint {
		t.Fatalf("accepted auth URL %q; gophercloud's is %q (normalized %q, %v)", c.Auth.IdentityEndpoint, theirs.IdentityEndpoint, n, err)
	}
	ours := c.Auth
	same := func(field, a, b string) {
		if a != b {
			t.Fatalf("accepted %s %q; gophercloud reads %q", field, a, b)
		}
	}
	same("username", ours.Username, theirs.Username)
	same("user_id", ours.UserID, theirs.UserID)
	same("password", ours.Password, theirs.Password)
	same("token", ours.TokenID, theirs.TokenID)
	same("application_credential_id", ours.ApplicationCredentialID, theirs.ApplicationCredentialID)
	same("application_credential_name", ours.ApplicationCredentialName, theirs.ApplicationCredentialName)
	same("application_credential_secret", ours.ApplicationCredentialSecret, theirs.ApplicationCredentialSecret)
	same("region", c.Endpoint.Region, endpoint.Region)
	same("interface", string(c.Endpoint.Availability), string(endpoint.Availability))
	// tenant_* and default_domain are read as openstacksdk does, not as gophercloud: the
	// project and domains are compared when the file uses neither.
	if !strings.Contains(strings.ToLower(string(doc)), "tenant_") && !strings.Contains(strings.ToLower(string(doc)), "default_domain") {
		same("user domain ID", ours.DomainID, theirs.DomainID)
		same("user domain name", ours.DomainName, theirs.DomainName)
		same("project ID", ours.TenantID, theirs.TenantID)
		same("project name", ours.TenantName, theirs.TenantName)
		if !reflect.DeepEqual(ours.Scope, theirs.Scope) {
			t.Fatalf("accepted scope %+v; gophercloud reads %+v", ours.Scope, theirs.Scope)
		}
	}
}

// fuzzSeeds are valid files and every hostile shape the decoder refuses.
func fuzzSeeds() []string {
	valid := string(cloudsYAML(passwordAuth))
	seeds := []string{
		valid,
		string(cloudsYAML(appCredAuth, "    auth_type: v3applicationcredential\n")),
		string(cloudsYAML(tokenAuth, "    auth_type: v3token\n")),
		"clouds:\n  team-a:\n    auth:\n      auth_url: https://KEYSTONE.example.com:5000/v3/\n      username: \"alice\"\n      password: \"" + testPassword +
			"\"\n      project_id: 9f0a\n      project_name: \"team-a\"\n      user_domain_name: \"Default\"\n    region_name: \"RegionOne\"\n    interface: \"public\"\n    identity_api_version: 3\n",
		`{"clouds": {"team-a": {"auth": {"auth_url": "http://[fd00::1]:5000/v3", "user_id": "u", "password": "` + testPassword + `", "project_id": "p"}, "verify": false}}}`,
		"clouds:\n  team-a:\n    auth:\n      auth_url: " + testAuthURL + "\n      username: alice\n      password: " + testPassword + "\n      tenant_name: t\n      default_domain: d\n",
		"\ufeff" + valid,
	}
	variant := func(old, new string) string { return strings.Replace(valid, old, new, 1) }
	for _, key := range []string{"AUTH_URL", "auth_urL", "Auth_Url", "aut\u0127_url"} {
		seeds = append(seeds, variant("      auth_url: "+testAuthURL+"\n", "      auth_url: "+testAuthURL+"\n      "+key+": "+evilURL+"\n"))
		seeds = append(seeds, variant("      auth_url: "+testAuthURL+"\n", "      auth_url: "+evilURL+"\n      "+key+": "+testAuthURL+"\n"))
	}
	seeds = append(seeds,
		variant("password", "pa\u017fsword"),
		variant("password", "PASSWORD"),
		variant("auth:", "Auth:"),
		variant("clouds:", "Clouds:"),
		"clouds:\n  team-a:\n    auth: {auth_url: "+evilURL+", to\u212aen: t, token: "+testPassword+"}\n",
		"clouds:\n  team-a:\n    auth: {auth_url: "+testAuthURL+", application_credential_id: a, application_credential_\u017fecret: "+testPassword+"}\n    auth_type: v3applicationcredential\n",
		// duplicates
		variant("      auth_url: "+testAuthURL+"\n", "      auth_url: "+testAuthURL+"\n      auth_url: "+evilURL+"\n"),
		variant("      auth_url: "+testAuthURL+"\n", "      auth_url: "+evilURL+"\n      auth_url: "+testAuthURL+"\n"),
		valid+"  team-a:\n    auth: {auth_url: "+evilURL+"}\n",
		valid+"    auth: {auth_url: "+evilURL+"}\n",
		valid+"clouds: {}\n",
		// anchors, aliases, merge keys
		"base: &b {auth_url: "+evilURL+"}\n"+variant("      auth_url: "+testAuthURL+"\n", "      <<: *b\n"),
		"clouds:\n  x: &x\n    auth_url: "+evilURL+"\n  team-a:\n    auth:\n      <<: *x\n      username: a\n      password: "+testPassword+"\n      user_domain_id: d\n",
		variant("auth:\n", "auth: &a\n")+"  other:\n    auth: *a\n",
		variant(testPassword, "&p "+testPassword)+"  other:\n    auth: {password: *p}\n",
		// tags
		variant(testAuthURL, "!!binary aHR0cDovLzE2OS4yNTQuMTY5LjI1NC9ldmls"),
		variant(testAuthURL, "!!str "+testAuthURL),
		variant(testPassword, "!vault "+testPassword),
		variant(testPassword, "! null"),
		variant("auth:\n", "auth: !!map\n"),
		// file keys in any spelling
		valid+"    cacert: /etc/kubernetes/pki/ca.crt\n",
		valid+"    CACERT: /etc/kubernetes/pki/ca.crt\n",
		valid+"    Cert: /etc/kubernetes/pki/apiserver.crt\n    \u212aey: /etc/kubernetes/pki/apiserver.key\n",
		valid+"    profile: vexxhost\n",
		valid+"    Cloud: vexxhost\n",
		valid+"    verify: false\n",
		valid+"    verify: no\n",
		// auth URLs
		variant(testAuthURL, "https://alice:"+testPassword+"@keystone.example.com:5000/v3"),
		variant(testAuthURL, "https://keystone.example.com:443/v3"),
		variant(testAuthURL, "https://keystone.example.com.:5000/v3"),
		variant(testAuthURL, `'https://keystone.example.com:5000\@169.254.169.254/v3'`),
		variant(testAuthURL, "https://keystone%2eexample.com:5000/v3"),
		variant(testAuthURL, "https://keystone.example.com:5000/v%33"),
		variant(testAuthURL, "https://keystone.example.com:5000/v3?x=1"),
		variant(testAuthURL, "https://keystone.example.com:5000/v3#"),
		variant(testAuthURL, `"https://keystone.example.com:5000/v3\t"`),
		variant(testAuthURL, "http://[FD00::1]:5000/v3/"),
		// scalars the two YAML readers must read alike
		variant(testPassword, `"a\tb\u00e9\x41\u2028\N\_\L\P\e"`),
		variant(testPassword, "a\u2028b\u0085c"),
		variant("username: alice", "username: alice\n        smith"),
		variant(testPassword, ">\n        folded\n        lines\n\n        kept\n"),
		variant(testPassword, "|+\n        literal\n\n"),
		strings.ReplaceAll(valid, "\n", "\r\n"),
		strings.ReplaceAll(valid, "\n", "\r"),
		variant("username: alice", "username: 'it''s'"),
		variant("username: alice", "username: alice # a comment"),
		variant("username: alice", "username: 0x1F"),
		variant("username: alice", "username: 2001-12-14t21:59:43.10-05:00"),
		variant("username: alice", "username: .inf"),
		variant("username: alice", "username: yes"),
		// other shapes
		valid+"---\n"+valid,
		"clouds:\n  team-a: b: "+testPassword+"\n",
		"clouds:\n  team-a:\n    auth:\n      password: ["+testPassword+"]\n",
		variant("    region_name: RegionOne\n", "    region_name: RegionOne\n    interface: internalURL\n    endpoint_type: admin\n"),
		"clouds:\n"+manyClouds(MaxClouds+1),
		valid+strings.Repeat("#"+testPassword+"\n", MaxCloudsYAMLBytes/len(testPassword)),
	)
	return seeds
}
