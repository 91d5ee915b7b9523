package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/gophercloud/gophercloud/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
)

// This file builds what gophercloud gets from a decoded cloud, as gophercloud's
// clouds.Parse would from the same entry, without clouds.Parse: it reads the controller's
// environment (OS_*) and files. Two additions, both as openstacksdk reads clouds.yaml:
// auth.tenant_id and auth.tenant_name stand for project_id and project_name, and
// auth.default_domain is the domain ID of a user name or project name given no domain.

// authOptionsOf returns the cloud's gophercloud.AuthOptions for the checked authURL.
func authOptionsOf(where string, e *cloudEntry, authURL string) (gophercloud.AuthOptions, error) {
	a := e.auth
	projectID, err := oneOf(where, a, "project_id", "tenant_id")
	if err != nil {
		return gophercloud.AuthOptions{}, err
	}
	projectName, err := oneOf(where, a, "project_name", "tenant_name")
	if err != nil {
		return gophercloud.AuthOptions{}, err
	}
	scope, err := scopeOf(where, a, projectID, projectName)
	if err != nil {
		return gophercloud.AuthOptions{}, err
	}
	opts := gophercloud.AuthOptions{
		IdentityEndpoint:            authURL,
		Username:                    a["username"],
		UserID:                      a["user_id"],
		Password:                    a["password"],
		DomainID:                    firstOf(a["user_domain_id"], a["domain_id"]),
		DomainName:                  firstOf(a["user_domain_name"], a["domain_name"]),
		TenantID:                    projectID,
		TenantName:                  projectName,
		TokenID:                     a["token"],
		Scope:                       scope,
		ApplicationCredentialID:     a["application_credential_id"],
		ApplicationCredentialName:   a["application_credential_name"],
		ApplicationCredentialSecret: a["application_credential_secret"],
	}
	if opts.Username != "" && opts.DomainID == "" && opts.DomainName == "" {
		opts.DomainID = a["default_domain"]
	}
	if err := checkAuthOptions(where, opts); err != nil {
		return gophercloud.AuthOptions{}, err
	}
	return opts, nil
}

// scopeOf is clouds.Parse's scope: the system, else a project by ID, else by name in its
// domain, else a domain.
func scopeOf(where string, a map[string]string, projectID, projectName string) (*gophercloud.AuthScope, error) {
	switch {
	case a["system_scope"] != "":
		if a["system_scope"] != "all" {
			return nil, errorf(samplecrdv1.ReasonCloudsYAMLInvalid, "%s sets auth.system_scope to other than all, the only system scope", where)
		}
		return &gophercloud.AuthScope{System: true}, nil
	case projectID != "":
		return &gophercloud.AuthScope{ProjectID: projectID}, nil
	case projectName != "":
		scope := &gophercloud.AuthScope{
			ProjectName: projectName,
			DomainID:    firstOf(a["project_domain_id"], a["domain_id"]),
			DomainName:  firstOf(a["project_domain_name"], a["domain_name"]),
		}
		if scope.DomainID == "" && scope.DomainName == "" {
			scope.DomainID = a["default_domain"]
		}
		return scope, nil
	case a["domain_id"] != "":
		return &gophercloud.AuthScope{DomainID: a["domain_id"]}, nil
	case a["domain_name"] != "":
		return &gophercloud.AuthScope{DomainName: a["domain_name"]}, nil
	}
	return nil, nil
}

// oneOf returns the value of key or of its alias, refusing both set.
func oneOf(where string, a map[string]string, key, alias string) (string, error) {
	_, hasKey := a[key]
	_, hasAlias := a[alias]
	if hasKey && hasAlias {
		return "", errorf(samplecrdv1.ReasonCloudsYAMLInvalid, "%s sets both auth.%s and auth.%s; keep %s", where, key, alias, key)
	}
	return firstOf(a[key], a[alias]), nil
}

// checkAuthOptions refuses, before any request, what gophercloud would refuse when
// authenticating with Keystone v3: the controller would otherwise retry it as if Keystone
// were down. Keystone v2.0 URLs are left to gophercloud (other rules).
func checkAuthOptions(where string, opts gophercloud.AuthOptions) error {
	if strings.HasSuffix(opts.IdentityEndpoint, "/v2.0") {
		return nil
	}
	if opts.Scope != nil {
		scope := *opts.Scope // ToTokenV3ScopeMap may fill the scope it is given
		opts.Scope = &scope
	}
	_, err := opts.ToTokenV3CreateMap(nil)
	if err == nil {
		_, err = opts.ToTokenV3ScopeMap()
	}
	if err == nil {
		return nil
	}
	return &Error{Reason: samplecrdv1.ReasonCloudsYAMLInvalid, Err: err,
		Message: where + " cannot authenticate as written: " + explainAuthError(err)}
}

// explainAuthError says in clouds.yaml's keys what gophercloud says in its fields.
func explainAuthError(err error) string {
	switch err.(type) {
	case gophercloud.ErrUsernameOrUserID:
		return "set exactly one of auth.username and auth.user_id"
	case gophercloud.ErrDomainIDOrDomainName:
		return "auth.username needs exactly one user domain: auth.user_domain_id or auth.user_domain_name (else auth.domain_id or auth.domain_name, or auth.default_domain)"
	case gophercloud.ErrDomainIDWithUserID, gophercloud.ErrDomainNameWithUserID:
		return "auth.user_id goes without a user domain (auth.user_domain_id, auth.user_domain_name, auth.domain_id, auth.domain_name)"
	case gophercloud.ErrUsernameWithToken, gophercloud.ErrUserIDWithToken, gophercloud.ErrDomainIDWithToken, gophercloud.ErrDomainNameWithToken:
		return "a token goes without auth.username, auth.user_id, auth.user_domain_id, auth.user_domain_name, auth.domain_id and auth.domain_name"
	case gophercloud.ErrScopeDomainIDOrDomainName:
		return "auth.project_name needs exactly one project domain: auth.project_domain_id or auth.project_domain_name (else auth.domain_id or auth.domain_name, or auth.default_domain)"
	case gophercloud.ErrScopeProjectIDOrProjectName, gophercloud.ErrScopeProjectIDAlone:
		return "set either auth.project_id, or auth.project_name with its domain"
	}
	return err.Error()
}

// endpointOptsOf returns where Neutron is looked up in Keystone's catalog: the region, and
// the interface (endpoint_type before interface, as in clouds.Parse; public by default).
func endpointOptsOf(where string, e *cloudEntry) (gophercloud.EndpointOpts, error) {
	availability := gophercloud.AvailabilityPublic
	for _, key := range []string{"interface", "endpoint_type"} {
		value, set := e.text[key]
		if !set {
			continue
		}
		a, ok := availabilities[value]
		if !ok {
			return gophercloud.EndpointOpts{}, errorf(samplecrdv1.ReasonCloudsYAMLInvalid,
				"%s sets %s to other than public, internal or admin (or publicURL, internalURL, adminURL)", where, key)
		}
		if key == "endpoint_type" && e.text["interface"] != "" && a != availability {
			return gophercloud.EndpointOpts{}, errorf(samplecrdv1.ReasonCloudsYAMLInvalid,
				"%s sets interface and endpoint_type to different interfaces; keep one", where)
		}
		availability = a
	}
	return gophercloud.EndpointOpts{Region: e.text["region_name"], Availability: availability}, nil
}

// availabilities are the interface values gophercloud tells apart (anything else it reads
// as public, which here is refused: a typo should not pick the interface).
var availabilities = map[string]gophercloud.Availability{
	"public": gophercloud.AvailabilityPublic, "publicURL": gophercloud.AvailabilityPublic,
	"internal": gophercloud.AvailabilityInternal, "internalURL": gophercloud.AvailabilityInternal,
	"admin": gophercloud.AvailabilityAdmin, "adminURL": gophercloud.AvailabilityAdmin,
}

// principalOf names the Keystone account that authenticates: the auth URL and the user
// (user ID, or domain and name), the application credential (ID, or name with its user),
// or, for a token, a short SHA-256 of it (a token names no account, and is a secret).
// Values are quoted, so that different accounts never read the same.
func principalOf(method string, opts gophercloud.AuthOptions) string {
	var b strings.Builder
	b.WriteString(opts.IdentityEndpoint)
	field := func(key, value string) {
		if value != "" {
			b.WriteString(" " + key + "=" + strconv.Quote(value))
		}
	}
	user := func() {
		if opts.UserID != "" {
			field("user_id", opts.UserID)
			return
		}
		// Keystone's SQL backend usually compares names without case: "Alice" is alice.
		field("user_domain_id", opts.DomainID)
		field("user_domain_name", strings.ToLower(opts.DomainName))
		field("username", strings.ToLower(opts.Username))
	}
	switch method {
	case methodApplicationCredential:
		if opts.ApplicationCredentialID != "" {
			field("application_credential_id", opts.ApplicationCredentialID)
			break
		}
		field("application_credential_name", opts.ApplicationCredentialName)
		user()
	case methodToken:
		sum := sha256.Sum256([]byte(opts.TokenID))
		field("token_sha256", hex.EncodeToString(sum[:8]))
	default:
		user()
	}
	return b.String()
}

// lockoutUserOf names the user whose refusals Keystone counts toward a lockout: only a
// password's (application credentials and tokens are not locked out), by ID, or by name
// and domain, in the one spelling the lockout gate counts under. A spelling the gate
// cannot count safely (an ID that is not hex digits and dashes, a name outside printable
// ASCII or with surrounding spaces) is refused here, before any request.
func lockoutUserOf(where, method string, opts gophercloud.AuthOptions) (user, domain string, err error) {
	if method != methodPassword {
		return "", "", nil
	}
	user, domain, err = lockout.CanonicalUser(opts.UserID, opts.Username, opts.DomainID, opts.DomainName)
	if err != nil {
		return "", "", &Error{Reason: samplecrdv1.ReasonCloudsYAMLInvalid, Err: err,
			Message: fmt.Sprintf("%s names its password's user in a spelling Keystone's database may take for other users, which the controller cannot count toward Keystone's lockout: %v. Spell it as Keystone shows it (an ID of hex digits and dashes, a name of printable ASCII), or use an application credential", where, err)}
	}
	return user, domain, nil
}
