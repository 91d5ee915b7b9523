package registry

import (
	"errors"
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
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		n, err := NormalizeAuthURL(e)
		if err != nil {
			return AuthURLs{}, fmt.Errorf("allowed auth URL %q: %w", e, err)
		}
		if !slices.Contains(a.urls, n) {
			a.urls = append(a.urls, n)
		}
	}
	return a, nil
}

// Allows reports whether authURL is on the list, compared after normalization.
func (a AuthURLs) Allows(authURL string) bool {
	n, err := NormalizeAuthURL(authURL)
	return err == nil && a.contains(n)
}

// contains reports whether a normalized URL is on the list.
func (a AuthURLs) contains(normalized string) bool { return slices.Contains(a.urls, normalized) }

// String lists the allowed URLs for messages; they are the operator's, not secrets.
func (a AuthURLs) String() string {
	if len(a.urls) == 0 {
		return "none"
	}
	return strings.Join(a.urls, ", ")
}

// Empty reports whether nothing is allowed.
func (a AuthURLs) Empty() bool { return len(a.urls) == 0 }

// NormalizeAuthURL returns the one spelling of an http(s) URL that the list stores and
// that is handed to gophercloud: scheme and host lower-cased, a default port and trailing
// slashes dropped. Those are the only rewrites, each keeping the address the same.
//
// Anything else that could make two parsers, or the list and the HTTP client, read
// different addresses is refused rather than cleaned up, so that an attacker's URL is
// never turned into an allowed one: user info (credentials in the URL), a query or
// fragment, whitespace, control and non-ASCII characters, backslashes, a percent-encoded
// or empty host, an empty port. A host with a trailing dot stays as written: it is not
// the host without the dot unless the operator listed it so. Errors never quote the URL.
func NormalizeAuthURL(raw string) (string, error) {
	if err := refuseAuthURLCharacters(raw); err != nil {
		return "", err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", errors.New("does not parse as a URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Opaque != "" {
		return "", errors.New("is not an http(s) URL")
	}
	if u.User != nil {
		return "", errors.New("carries user info (user@ or user:password@ before the host)")
	}
	if u.Hostname() == "" {
		return "", errors.New("has no host")
	}
	// url.URL.Host holds the host decoded: look at it as written.
	authority, ok := strings.CutPrefix(raw[len(u.Scheme):], "://")
	if !ok {
		return "", errors.New("is not an http(s) URL")
	}
	authority, _, _ = strings.Cut(authority, "/")
	if strings.Contains(authority, "%") {
		return "", errors.New("has a percent-encoded host")
	}
	if strings.HasSuffix(authority, ":") {
		return "", errors.New("has an empty port")
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port := u.Port(); port != "" && !(scheme == "http" && port == "80") && !(scheme == "https" && port == "443") {
		host += ":" + port
	}
	return scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/"), nil
}

// refuseAuthURLCharacters refuses what no Keystone URL needs and parsers disagree on.
func refuseAuthURLCharacters(raw string) error {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c <= ' ' || c >= 0x7f:
			return errors.New("holds whitespace, a control or a non-ASCII character")
		case c == '\\':
			return errors.New("holds a backslash")
		case c == '?' || c == '#':
			return errors.New("has a query or a fragment")
		}
	}
	return nil
}
