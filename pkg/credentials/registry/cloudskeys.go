package registry

import (
	"strings"
	"unicode"
)

// keyKind is what the decoder does with a key of clouds.yaml.
type keyKind int

const (
	// keyScalar is honoured: a scalar, kept as its text.
	keyScalar keyKind = iota
	// keyBool is honoured: true or false.
	keyBool
	// keyMapping is honoured: a mapping, decoded with its own keys.
	keyMapping
	// keyIgnored is accepted and not read: a scalar that changes nothing this controller
	// does (see ignoredKeys).
	keyIgnored
	// keyFile makes gophercloud read a file of the controller's host; it is decoded so
	// that a cloud setting it is refused, with its own reason, when it is used.
	keyFile
	// keyUnsupported is known to clouds.yaml but not honoured here: refused.
	keyUnsupported
)

// Keys accepted and ignored, all harmless:
//   - in a cloud: identity_api_version, volume_api_version and any other
//     <service>_api_version (gophercloud's clouds.Parse reads none of them; the identity
//     version follows from auth_url, and this controller only talks to Neutron);
//   - in auth: allow_reauth (clouds.Parse does not pass it on; the controller renews
//     tokens itself).
//
// Keys known but refused: regions (a list of per-region overrides clouds.Parse does not
// apply) and auth.trust_id (trust scopes are not supported); cacert, cert, key, profile
// and cloud name files of the controller's host (see refuseFiles).
var (
	topLevelKeys = map[string]keyKind{"clouds": keyMapping}

	cloudKeys = map[string]keyKind{
		"auth":                 keyMapping,
		"auth_type":            keyScalar,
		"region_name":          keyScalar,
		"interface":            keyScalar,
		"endpoint_type":        keyScalar,
		"verify":               keyBool,
		"identity_api_version": keyIgnored,
		"volume_api_version":   keyIgnored,
		"cacert":               keyFile,
		"cert":                 keyFile,
		"key":                  keyFile,
		"profile":              keyFile,
		"cloud":                keyFile,
		"regions":              keyUnsupported,
	}

	authKeys = map[string]keyKind{
		"auth_url":                      keyScalar,
		"username":                      keyScalar,
		"user_id":                       keyScalar,
		"password":                      keyScalar,
		"user_domain_name":              keyScalar,
		"user_domain_id":                keyScalar,
		"project_name":                  keyScalar,
		"project_id":                    keyScalar,
		"tenant_name":                   keyScalar,
		"tenant_id":                     keyScalar,
		"project_domain_name":           keyScalar,
		"project_domain_id":             keyScalar,
		"domain_name":                   keyScalar,
		"domain_id":                     keyScalar,
		"default_domain":                keyScalar,
		"application_credential_id":     keyScalar,
		"application_credential_name":   keyScalar,
		"application_credential_secret": keyScalar,
		"token":                         keyScalar,
		"system_scope":                  keyScalar,
		"allow_reauth":                  keyIgnored,
		"trust_id":                      keyUnsupported,
	}
)

// apiVersionSuffix marks the <service>_api_version keys of a cloud, all ignored.
const apiVersionSuffix = "_api_version"

// keySchema is the keys of one level of clouds.yaml.
type keySchema struct {
	keys map[string]keyKind
	// apiVersions accepts and ignores <service>_api_version keys.
	apiVersions bool
}

var (
	topLevelSchema = keySchema{keys: topLevelKeys}
	cloudSchema    = keySchema{keys: cloudKeys, apiVersions: true}
	authSchema     = keySchema{keys: authKeys}
)

// lookup returns the kind of a key written exactly as known.
func (s keySchema) lookup(key string) (keyKind, bool) {
	if kind, ok := s.keys[key]; ok {
		return kind, true
	}
	if s.apiVersions && isAPIVersionKey(key) {
		return keyIgnored, true
	}
	return 0, false
}

// foldsTo returns the known key that key equals under Unicode simple case folding
// (strings.EqualFold: AUTH_URL, Auth_Url, and the Kelvin sign for k or the long s for s),
// or "" when there is none. gophercloud matches keys byte for byte while a JSON-based
// decoder matches them folded: such a key means one thing to one parser and another to
// the next, so it is refused, not guessed at.
func (s keySchema) foldsTo(key string) string {
	folded, ok := foldToASCII(key)
	if !ok || folded == key {
		return ""
	}
	if _, known := s.lookup(folded); known {
		return folded
	}
	return ""
}

// isAPIVersionKey reports whether key is <service>_api_version with a lower-case service.
func isAPIVersionKey(key string) bool {
	service, ok := strings.CutSuffix(key, apiVersionSuffix)
	if !ok || service == "" {
		return false
	}
	for _, c := range service {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// foldToASCII returns the lower-case ASCII string that s equals under Unicode simple case
// folding, and false when some rune of s folds to no ASCII rune (then s equals no known
// key, all of them ASCII). strings.EqualFold(s, k) holds for a lower-case ASCII k exactly
// when foldToASCII(s) returns k.
func foldToASCII(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		ascii, ok := asciiFold(r)
		if !ok {
			return "", false
		}
		b.WriteRune(ascii)
	}
	return b.String(), true
}

// asciiFold returns the lower-case ASCII rune in r's case-folding orbit, if there is one.
func asciiFold(r rune) (rune, bool) {
	for f := r; ; {
		if f < unicode.MaxASCII+1 {
			return unicode.ToLower(f), true
		}
		if f = unicode.SimpleFold(f); f == r {
			return 0, false
		}
	}
}
