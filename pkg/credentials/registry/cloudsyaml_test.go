package registry

import (
	"fmt"
	"maps"
	"strings"
	"testing"
)

// TestDecodeCloudsYAMLReadsValuesAsText: every scalar is kept as written, as gophercloud's
// yaml.v2 puts it into a string field (a number keeps its leading zero).
func TestDecodeCloudsYAMLReadsValuesAsText(t *testing.T) {
	clouds, err := decodeCloudsYAML([]byte(`
# a comment
clouds:
  team-a:
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: "alice"
      password: 'p: w#1'
      project_id: 0123
      user_domain_name: !!str Default
      project_domain_id: default
      allow_reauth: true
    region_name: |-
      RegionOne
    interface: public
    identity_api_version: 3
    compute_api_version: 2.1
    verify: false
  team-b: {auth: {auth_url: "https://k/v3", token: yes}, auth_type: token, cacert: /etc/ssl/ca.pem}
`))
	if err != nil {
		t.Fatal(err)
	}
	a := clouds["team-a"]
	wantAuth := map[string]string{"auth_url": "https://keystone.example.com:5000/v3", "username": "alice", "password": "p: w#1",
		"project_id": "0123", "user_domain_name": "Default", "project_domain_id": "default"}
	if !maps.Equal(a.auth, wantAuth) {
		t.Errorf("auth %v\nwant %v", a.auth, wantAuth)
	}
	if want := map[string]string{"region_name": "RegionOne", "interface": "public"}; !maps.Equal(a.text, want) {
		t.Errorf("text %v, want %v", a.text, want)
	}
	if a.verify == nil || *a.verify || len(a.files) != 0 {
		t.Errorf("verify %v, files %v", a.verify, a.files)
	}
	b := clouds["team-b"]
	if b.auth["token"] != "yes" || b.text["auth_type"] != "token" || len(b.files) != 1 || b.files[0] != "cacert" {
		t.Errorf("team-b: %+v", b)
	}
}

// TestDecodeCloudsYAMLRefusals: each shape that readers of YAML could read differently is
// refused, and the message names the place, not the value.
func TestDecodeCloudsYAMLRefusals(t *testing.T) {
	const value = "V4lue-n0t-to-show"
	for _, tt := range []struct{ name, doc, says string }{
		{"case variant", "clouds:\n  a:\n    auth:\n      auth_url: x\n      AUTH_URL: " + value + "\n",
			`key auth.AUTH_URL of cloud "a" differs from the known key auth.auth_url only by case (line 5)`},
		{"kelvin sign", "clouds:\n  a:\n    auth:\n      to\u212aen: " + value + "\n",
			`key auth."to\u212aen" of cloud "a" differs from the known key auth.token only by case`},
		{"top-level case", "Clouds: {}\n", "key Clouds differs from the known key clouds only by case"},
		{"duplicate key", "clouds:\n  a:\n    auth:\n      auth_url: x\n      auth_url: " + value + "\n",
			`key auth.auth_url of cloud "a" appears twice (lines 4 and 5)`},
		{"duplicate cloud", "clouds:\n  a: {}\n  a: {}\n", `cloud "a" appears twice (lines 2 and 3)`},
		{"unknown key", "clouds:\n  a:\n    auth:\n      passcode: " + value + "\n", `key auth.passcode of cloud "a" is not a key this controller knows (line 4)`},
		{"unknown top-level key", "clouds: {}\npublic-clouds: {}\n", "key public-clouds is not a key this controller knows"},
		{"unsupported key", "clouds:\n  a:\n    regions: [r1]\n", `key regions of cloud "a" is not supported by this controller`},
		{"anchor", "clouds:\n  a:\n    auth: &x\n      password: " + value + "\n", `key auth of cloud "a" sets an anchor (&) at line 3`},
		{"anchor on a scalar", "clouds:\n  a:\n    auth: {password: &p " + value + "}\n  b:\n    auth: {password: *p}\n", `key auth.password of cloud "a" sets an anchor`},
		{"merge key", "clouds:\n  a:\n    auth:\n      <<: {auth_url: " + value + "}\n", `a key of cloud "a" is a merge key (<<) at line 4`},
		{"binary tag", "clouds:\n  a:\n    auth:\n      auth_url: !!binary aHR0cHM6Ly9ldmlsLw==\n", `key auth.auth_url of cloud "a" has a YAML tag (!...) at line 4`},
		{"local tag", "clouds:\n  a:\n    auth:\n      password: !vault " + value + "\n", "has a YAML tag"},
		{"non-string key", "clouds:\n  a:\n    auth:\n      1: " + value + "\n", `a key of cloud "a" at line 4 is not a string`},
		{"null key", "clouds:\n  a:\n    ~: " + value + "\n", "is not a string"},
		{"list as value", "clouds:\n  a:\n    auth:\n      password: [" + value + "]\n", `key auth.password of cloud "a" must be a single value, not a mapping or a list (line 4)`},
		{"scalar auth", "clouds:\n  a:\n    auth: " + value + "\n", `key auth of cloud "a" must be a mapping (line 3)`},
		{"null value", "clouds:\n  a:\n    auth:\n      password:\n", `key auth.password of cloud "a" has no value (line 4)`},
		{"verify not a bool", "clouds:\n  a:\n    verify: 'false'\n", `key verify of cloud "a" must be true or false, unquoted`},
		{"two documents", "clouds: {}\n---\nclouds: {}\n", "more than one YAML document (another starts at line 2)"},
		{"no document", "# only a comment\n", "holds no YAML document"},
		{"not a mapping", "- clouds\n", "the document must be a mapping with the key clouds"},
		{"no clouds", "{}\n", "the document has no key clouds"},
		{"clouds a list", "clouds: [a]\n", "key clouds must be a mapping"},
		{"syntax", "clouds:\n  a: b: " + value + "\n", "syntax error at line 2"},
		{"too many clouds", "clouds:\n" + manyClouds(MaxClouds+1), "it holds 65 clouds, more than the 64 this controller reads"},
		// Hostile shapes: none is expanded or read further than its first refusal.
		{"alias bomb", aliasBomb(), `cloud "l0" sets an anchor (&) at line 2`},
		{"alias bomb beside clouds", "a: &a [l, l, l, l]\nb: [*a, *a, *a, *a]\nclouds: {}\n", "key a is not a key this controller knows (line 1)"},
		{"duplicate key clouds", "clouds: {}\nclouds: {}\n", "key clouds appears twice (lines 1 and 2)"},
		{"list as key", "clouds:\n  a:\n    ? [" + value + "]\n    : x\n", `a key of cloud "a" at line 3 is not a string`},
		{"mapping as key", "clouds:\n  a:\n    ? {password: " + value + "}\n    : x\n", `a key of cloud "a" at line 3 is not a string`},
		{"bool key", "clouds:\n  a:\n    true: " + value + "\n", `a key of cloud "a" at line 3 is not a string`},
		{"int tag", "clouds:\n  a:\n    region_name: !!int 5\n", `key region_name of cloud "a" has a YAML tag (!...) at line 3`},
		{"null tag", "clouds:\n  a:\n    region_name: !!null\n", `key region_name of cloud "a" has a YAML tag (!...) at line 3`},
		{"language tag", "clouds:\n  a:\n    region_name: !!python/object:os.system " + value + "\n", "has a YAML tag (!...) at line 3"},
		{"tag of a %TAG directive", "%TAG !e! tag:example.com,2000:\n---\nclouds:\n  a:\n    region_name: !e!x " + value + "\n", "has a YAML tag (!...) at line 5"},
		{"set tag", "clouds:\n  a: !!set {" + value + "}\n", `cloud "a" has a YAML tag (!...) at line 2`},
		{"binary clouds", "clouds: !!binary aGVsbG8=\n", "key clouds must be a mapping (line 1)"},
		{"deep flow lists", "clouds:\n  a:\n    auth: " + strings.Repeat("[", 20000) + "\n", "syntax error at line 3"},
		{"deep flow mappings", "clouds:\n  a:\n    auth: " + strings.Repeat("{a: ", 12000) + "\n", "syntax error at line 3"},
		{"deep block mappings", "clouds:\n" + deepBlock(200), `key a of cloud "a" is not a key this controller knows (line 3)`},
		{"empty second document", "clouds: {}\n---\n", "more than one YAML document (another starts at line 2)"},
		{"document after an end marker", "clouds: {}\n...\n---\nclouds: {}\n", "more than one YAML document (another starts at line 3)"},
		{"not UTF-8", "clouds:\n  a:\n    region_name: \xff\xfe\n", "it does not parse as YAML"},
		{"long unknown key", "clouds:\n  a:\n    " + strings.Repeat("k", 500) + ": " + value + "\n",
			`key "` + strings.Repeat("k", 64) + `"... of cloud "a" is not a key this controller knows (line 3)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeCloudsYAML([]byte(tt.doc))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %q\nwant it to contain %q", err, tt.says)
			}
			if strings.Contains(err.Error(), value) {
				t.Errorf("message shows a value: %q", err)
			}
		})
	}
}

// aliasBomb is nine levels of nine aliases each: 9^9 nodes when expanded, under 1 KiB.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("clouds:\n  l0: &l0 {auth_type: lol}\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d {auth_type: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 9), ", "))
	}
	return b.String()
}

// deepBlock is a block mapping depth levels deep under a cloud named a.
func deepBlock(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat("  ", i+1) + "a:\n")
	}
	return b.String()
}

func manyClouds(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("  c" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + ": {}\n")
	}
	return b.String()
}

func TestDecodeCloudsYAMLKeepsUpTo64Clouds(t *testing.T) {
	clouds, err := decodeCloudsYAML([]byte("clouds:\n" + manyClouds(MaxClouds)))
	if err != nil || len(clouds) != MaxClouds {
		t.Fatalf("%d clouds, %v", len(clouds), err)
	}
}
