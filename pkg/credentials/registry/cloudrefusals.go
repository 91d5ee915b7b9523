package registry

import (
	"slices"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Methods of authentication, as Cloud.Method names them.
const (
	methodPassword              = "password"
	methodApplicationCredential = "application credential"
	methodToken                 = "token"
)

// authTypes are the supported values of auth_type; none (the default) is a password.
var authTypes = map[string]string{
	"":                        methodPassword,
	"password":                methodPassword,
	"v3password":              methodPassword,
	"v3applicationcredential": methodApplicationCredential,
	"token":                   methodToken,
	"v3token":                 methodToken,
}

// credentialKeys are the auth keys that carry each method's credentials. A cloud sets no
// other method's: gophercloud picks the method from the keys set (a password first), so a
// stray key would authenticate otherwise than auth_type says.
var credentialKeys = []struct {
	method, authType string
	keys             []string
}{
	{methodPassword, "password", []string{"password"}},
	{methodApplicationCredential, "v3applicationcredential", []string{"application_credential_id", "application_credential_name", "application_credential_secret"}},
	{methodToken, "v3token", []string{"token"}},
}

// refuseFiles refuses a cloud that makes gophercloud read files of the controller's host:
// a CA, client certificate or key path, or a profile from clouds-public.yaml. The keys
// are refused whatever their value, which is never read: the message cannot depend on
// what exists on the host.
func refuseFiles(where string, e *cloudEntry) error {
	if len(e.files) == 0 {
		return nil
	}
	named := slices.Clone(e.files)
	slices.Sort(named)
	return errorf(samplecrdv1.ReasonCredentialsFileRefused,
		"%s sets %s, which would make the controller read a file of its own host; remove it (a private CA goes, as PEM, into the Secret's key %s)",
		where, strings.Join(named, ", "), KeyCACert)
}

// checkedAuthURL returns the cloud's auth_url in the normalized form the allowlist holds,
// which is then the very string gophercloud gets. Refusals show the URL only once it is
// known to carry no user info.
func checkedAuthURL(where string, e *cloudEntry, allowed AuthURLs) (string, error) {
	raw := e.auth["auth_url"]
	if raw == "" {
		return "", errorf(samplecrdv1.ReasonCloudsYAMLInvalid, "%s has no auth.auth_url", where)
	}
	normalized, err := NormalizeAuthURL(raw)
	if err != nil {
		return "", &Error{Reason: samplecrdv1.ReasonAuthURLNotAllowed, Err: err,
			Message: "the auth.auth_url of " + where + " " + err.Error() + ", which this controller refuses (allowed: " + allowed.String() + ")"}
	}
	if !allowed.contains(normalized) {
		return "", errorf(samplecrdv1.ReasonAuthURLNotAllowed,
			"%s authenticates at %s, which this controller does not allow (allowed: %s)", where, displayURL(normalized), allowed)
	}
	return normalized, nil
}

// displayURL cuts a long URL for a message.
func displayURL(u string) string {
	const max = 200
	if len(u) <= max {
		return u
	}
	return u[:max] + "..."
}

// methodOf returns how the cloud authenticates, from its auth_type, refusing unsupported
// types, other methods' credentials, and missing ones.
func methodOf(where string, e *cloudEntry) (string, error) {
	authType := e.text["auth_type"]
	method, ok := authTypes[authType]
	if !ok {
		return "", errorf(samplecrdv1.ReasonCloudsYAMLInvalid,
			"%s sets an auth_type this controller does not support; use password (the default), v3password, v3applicationcredential, token or v3token", where)
	}
	if authType == "" {
		authType = "password (the default)"
	}
	for _, other := range credentialKeys {
		for _, key := range other.keys {
			if _, set := e.auth[key]; set && other.method != method {
				return "", errorf(samplecrdv1.ReasonCloudsYAMLInvalid,
					"%s sets auth.%s, which does not go with auth_type %s; remove it, or set auth_type %s", where, key, authType, other.authType)
			}
		}
	}
	if missing := missingCredential(method, e.auth); missing != "" {
		return "", errorf(samplecrdv1.ReasonCloudsYAMLInvalid, "%s has no %s (auth_type %s)", where, missing, authType)
	}
	return method, nil
}

// missingCredential names what a method lacks, or returns "".
func missingCredential(method string, auth map[string]string) string {
	switch method {
	case methodApplicationCredential:
		if auth["application_credential_id"] == "" && auth["application_credential_name"] == "" {
			return "auth.application_credential_id (or auth.application_credential_name)"
		}
		if auth["application_credential_secret"] == "" {
			return "auth.application_credential_secret"
		}
	case methodToken:
		if auth["token"] == "" {
			return "auth.token"
		}
	default:
		if auth["password"] == "" {
			return "auth.password"
		}
	}
	return ""
}
