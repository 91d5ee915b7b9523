package registry

import (
	"strings"
	"testing"
)

func TestAuthURLsNormalize(t *testing.T) {
	a, err := ParseAuthURLs([]string{"HTTPS://Keystone.example.com:443/v3/", " ", "http://127.0.0.1:15000/v3", "http://[FD00::1]:5000/v3", "https://dotted.example.com./v3"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.String(), "https://keystone.example.com/v3, http://127.0.0.1:15000/v3, http://[fd00::1]:5000/v3, https://dotted.example.com./v3"; got != want {
		t.Errorf("stored %s, want %s", got, want)
	}
	for u, want := range map[string]bool{
		"https://keystone.example.com/v3":           true,
		"https://keystone.example.com:443/v3":       true,
		"https://KEYSTONE.example.com/v3//":         true,
		"http://127.0.0.1:15000/v3/":                true,
		"http://[fd00::1]:5000/v3":                  true,
		"https://dotted.example.com./v3":            true,
		"https://dotted.example.com/v3":             false,
		"https://keystone.example.com./v3":          false,
		"https://keystone.example.com/v3/?x=1":      false,
		"https://keystone.example.com/v3#x":         false,
		"https://keystone.example.com/v3?":          false,
		"http://keystone.example.com/v3":            false,
		"https://keystone.example.com/v2.0":         false,
		"https://keystone.example.com/v%33":         false,
		"https://user:pw@keystone.example.com/v3":   false,
		"https://@keystone.example.com/v3":          false,
		"https://keystone.example.com.evil.test/v3": false,
		"https://keystone%2eexample.com/v3":         false,
		"https://keystone%c3%a9.example.com/v3":     false,
		"https://keystone.example.com:/v3":          false,
		"https://keystone.example.com:0443/v3":      false,
		"https://keystone.example.com\\@evil/v3":    false,
		"https://keystone.example.com/v3 ":          false,
		" https://keystone.example.com/v3":          false,
		"https://keystone.example.com/v3\n":         false,
		"https://\u212aeystone.example.com/v3":      false,
		"https:keystone.example.com/v3":             false,
		"https:///v3":                               false,
		"file:///etc/kubernetes/admin.conf":         false,
		"http://127.0.0.1:15001/v3":                 false,
	} {
		if got := a.Allows(u); got != want {
			t.Errorf("Allows(%q) = %v, want %v", u, got, want)
		}
	}
	for _, bad := range []string{"keystone:5000", "https://keystone.example.com/v3?region=a", "https://u:p@keystone.example.com/v3"} {
		if _, err := ParseAuthURLs([]string{bad}); err == nil {
			t.Errorf("the entry %q was accepted", bad)
		}
	}
}

// TestNormalizeAuthURLNeverQuotesTheURL: a URL may carry a password (user info).
func TestNormalizeAuthURLNeverQuotesTheURL(t *testing.T) {
	for _, raw := range []string{"https://alice:" + testPassword + "@keystone.example.com/v3", "https://keystone.example.com/" + testPassword + "?x", "ftp://" + testPassword} {
		_, err := NormalizeAuthURL(raw)
		if err == nil {
			t.Fatalf("%q accepted", raw)
		}
		if strings.Contains(err.Error(), testPassword) {
			t.Errorf("error quotes the URL: %v", err)
		}
	}
}

// TestNormalizeAuthURLIsIdempotent: the normalized form is what the list stores and what
// gophercloud gets, so it must normalize to itself.
func TestNormalizeAuthURLIsIdempotent(t *testing.T) {
	for _, raw := range []string{"HTTPS://Keystone.example.com:443/v3/", "http://[FD00::1]:5000/", "http://a.example:80", "https://a.example./x/y/"} {
		n, err := NormalizeAuthURL(raw)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if again, err := NormalizeAuthURL(n); err != nil || again != n {
			t.Errorf("%q normalizes to %q, which normalizes to %q (%v)", raw, n, again, err)
		}
	}
}
