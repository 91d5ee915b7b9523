package tenancy

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// AuthURLs is the operator's allowlist of Keystone URLs tenants may authenticate with. A
// tenant's clouds.yaml must not point the controller at an address of the operator's
// choosing: the controller would send requests from inside the cluster to it.
type AuthURLs struct{ urls []string }

// ParseAuthURLs checks and normalizes the allowlist entries; empty entries are skipped.
func ParseAuthURLs(entries []string) (AuthURLs, error) {
	var a AuthURLs
	for _, e := range entries {
		if strings.TrimSpace(e) == "" {
			continue
		}
		n, ok := normalizeAuthURL(e)
		if !ok {
			return AuthURLs{}, fmt.Errorf("allowed auth URL %q is not an http(s) URL", e)
		}
		if !slices.Contains(a.urls, n) {
			a.urls = append(a.urls, n)
		}
	}
	return a, nil
}

// Allows reports whether authURL is on the list, compared after normalization.
func (a AuthURLs) Allows(authURL string) bool {
	n, ok := normalizeAuthURL(authURL)
	return ok && slices.Contains(a.urls, n)
}

// String lists the allowed URLs for messages; they are the operator's, not secrets.
func (a AuthURLs) String() string {
	if len(a.urls) == 0 {
		return "none"
	}
	return strings.Join(a.urls, ", ")
}

// Empty reports whether nothing is allowed.
func (a AuthURLs) Empty() bool { return len(a.urls) == 0 }

// normalizeAuthURL lower-cases scheme and host, drops a default port, a trailing slash, a
// query and a fragment, so that spellings of one URL compare equal. User info is refused:
// it would smuggle credentials past the list.
func normalizeAuthURL(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && !(scheme == "http" && port == "80") && !(scheme == "https" && port == "443") {
		host += ":" + port
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/"), true
}
