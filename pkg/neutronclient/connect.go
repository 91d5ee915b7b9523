package neutronclient

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"

	"github.com/samplecrd/network-controller/pkg/buildinfo"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/requestid"
)

// requestTimeout bounds one Neutron HTTP request, so a hung Neutron shows up as an
// "unavailable" error and a retry instead of a stuck worker.
const requestTimeout = 30 * time.Second

// userAgent names the controller's build before gophercloud's own product in every
// call, so Keystone's and Neutron's logs tell its requests, and its version, apart.
var userAgent = buildinfo.Read().UserAgent()

// ConnectEndpoint returns a Driver for a Neutron that answers without authentication
// (auth_strategy = noauth) at endpoint, e.g. http://127.0.0.1:9696/.
func ConnectEndpoint(endpoint string, observe CallObserver) (*Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("neutron endpoint %q is not an http(s) URL", endpoint)
	}
	if !strings.HasSuffix(endpoint, "/") {
		endpoint += "/"
	}
	pc := &gophercloud.ProviderClient{HTTPClient: http.Client{Timeout: requestTimeout, Transport: requestid.Transport{Next: http.DefaultTransport}}}
	pc.UserAgent.Prepend(userAgent)
	sc := &gophercloud.ServiceClient{ProviderClient: pc, Endpoint: endpoint, ResourceBase: endpoint + "v2.0/"}
	c := NewClient(sc, observe)
	c.place = neutron.Place{Endpoint: endpoint}
	return c, nil
}

// ConnectCloud authenticates with Keystone using the named cloud of clouds.yaml (looked up
// the standard way: OS_CLIENT_CONFIG_FILE, the working directory, ~/.config/openstack,
// /etc/openstack) and returns a Driver for that cloud's Neutron and the project its token
// is scoped to. The operator's own file, so gophercloud reads it as it reads any.
// Failures are those of ConnectKeystone.
func ConnectCloud(ctx context.Context, cloud string, hooks Hooks) (*Client, error) {
	authOpts, endpointOpts, tlsConfig, err := clouds.Parse(clouds.WithCloudName(cloud))
	if err != nil {
		return nil, fmt.Errorf("reading cloud %q from clouds.yaml: %w", cloud, err)
	}
	return ConnectKeystone(ctx, Credentials{Name: "cloud " + cloud, Auth: authOpts, Endpoint: endpointOpts, TLS: tlsConfig}, hooks)
}

// Credentials say how to authenticate with Keystone and find Neutron in its catalog.
type Credentials struct {
	// Name says whose credentials these are, in errors; never a secret.
	Name     string
	Auth     gophercloud.AuthOptions
	Endpoint gophercloud.EndpointOpts
	// TLS is nil for the system's roots.
	TLS *tls.Config
	// Trust names the roots TLS trusts when a credentials Secret chose them ("" for the
	// system's roots, or the operator's own file); it becomes the Place's Trust.
	Trust string
	// Requester says whose token requests these are, for the gate that admits them.
	Requester TokenRequester
}

// TokenRequester says whose token request it is, for the gate that admits it; never a secret.
type TokenRequester struct {
	// Account names the Keystone account, in messages.
	Account string
	// Keystone is the normalized auth URL.
	Keystone string
	// LockoutUser is the user whose refused requests Keystone counts toward locking it
	// out: "id:<user ID>" or "name:<user name>" for a password, in the one spelling
	// lockout.CanonicalUser gives; "" for an application credential or a token, which
	// Keystone does not lock out.
	LockoutUser string
	// LockoutDomain is, for a user by name, its domain: "id:<ID>" or "name:<name>", as
	// lockout.CanonicalUser spells it.
	LockoutDomain string
	// Source names where the credentials come from (a Secret's cloud).
	Source string
	// Turn is whose turn the request waits for in the controller's rate: all requests
	// of one namespace, whatever their credentials, take one turn.
	Turn string
}

// Hooks are what a Client tells about its calls, and what its token requests pass
// through (pkg/credentials/tokenrequests: counted, and admitted by the lockout gate).
// Every field may be nil.
type Hooks struct {
	// Observe is told about every Neutron call.
	Observe CallObserver
	// TokenRequests wraps the transport of the client's Keystone requests, who naming
	// whose they are; a token request (POST .../auth/tokens) that it refuses fails the
	// authentication or the renewal.
	TokenRequests func(next http.RoundTripper, who TokenRequester) http.RoundTripper
	// Authenticated is told the Keystone user whose token the credentials of who got.
	Authenticated func(who TokenRequester, user TokenUser)
}

// ConnectKeystone authenticates with Keystone and returns a Driver for the Neutron of
// Keystone's catalog; its Place names the project the token is scoped to.
//
// The token is kept and shared by all calls; a new one is requested only when Neutron
// answers 401 (expired or revoked), once for all calls waiting at that moment, and once
// more a second later when Neutron refuses the renewed token too. Every token
// request, the first and each renewal, passes hooks.TokenRequests. A
// failed first authentication is an *Error of Service "keystone": KindRejected for
// refused credentials, KindUnavailable when Keystone does not answer (or the gate held
// the request back).
func ConnectKeystone(ctx context.Context, creds Credentials, hooks Hooks) (*Client, error) {
	authOpts := creds.Auth
	// Tokens expire; let gophercloud authenticate again instead of failing every call.
	authOpts.AllowReauth = true
	pc, err := openstack.NewClient(authOpts.IdentityEndpoint)
	if err != nil {
		return nil, fmt.Errorf("%s: auth_url %q: %w", creds.Name, authOpts.IdentityEndpoint, err)
	}
	var transport http.RoundTripper = http.DefaultTransport
	if creds.TLS != nil {
		withTLS := http.DefaultTransport.(*http.Transport).Clone()
		withTLS.TLSClientConfig = creds.TLS
		transport = withTLS
	}
	if hooks.TokenRequests != nil {
		transport = hooks.TokenRequests(transport, creds.Requester)
	}
	transport = requestid.Transport{Next: transport}
	httpClient := http.Client{Timeout: requestTimeout, Transport: transport}
	pc.HTTPClient = httpClient
	// Before authenticating: the re-authentication client is a copy made now, and its
	// token requests should be recognisable in Keystone's request log as well.
	pc.UserAgent.Prepend(userAgent)
	if err := openstack.Authenticate(ctx, pc, authOpts); err != nil {
		if _, ok := neutron.AsThrottled(err); ok {
			// Deferred for its namespace's turn of token requests: nothing was asked yet.
			return nil, fmt.Errorf("%s: %w", creds.Name, err)
		}
		return nil, fmt.Errorf("%s (user %q, project %q): %w", creds.Name, userOf(authOpts), projectOf(authOpts), wrapAuthError(authOpts.IdentityEndpoint, err))
	}
	projectID, err := tokenProject(pc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", creds.Name, err)
	}
	user, err := tokenUser(pc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", creds.Name, err)
	}
	if hooks.Authenticated != nil {
		hooks.Authenticated(creds.Requester, user)
	}
	catalog, err := pc.GetAuthResult().(tokens.CreateResult).ExtractServiceCatalog()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the catalog of the token Keystone issued: %w", creds.Name, err)
	}
	endpoint, region, err := networkEndpoint(catalog, creds.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("finding the network endpoint of %s in the Keystone catalog: %w", creds.Name, err)
	}
	sc := &gophercloud.ServiceClient{ProviderClient: pc, Endpoint: endpoint, Type: "network", ResourceBase: endpoint + "v2.0/"}
	c := NewClient(sc, hooks.Observe)
	c.place = neutron.Place{Identity: pc.IdentityEndpoint, Region: region, Endpoint: endpoint, ProjectID: projectID, Trust: creds.Trust}
	c.user = user
	c.expiry, c.expiryErr = watchExpiry(ctx, pc)
	return c, nil
}

// tokenProject returns the project the provider client's token is scoped to.
func tokenProject(pc *gophercloud.ProviderClient) (string, error) {
	result, ok := pc.GetAuthResult().(tokens.CreateResult)
	if !ok {
		return "", fmt.Errorf("keystone issued no v3 token; only the identity v3 API is supported")
	}
	project, err := result.ExtractProject()
	if err != nil {
		return "", fmt.Errorf("reading the project of the token Keystone issued: %w", err)
	}
	if project == nil || project.ID == "" {
		return "", fmt.Errorf("the token Keystone issued is not scoped to a project; name one (project_name or project_id) in clouds.yaml")
	}
	return project.ID, nil
}

// tokenUser returns the user the provider client's token was issued to.
func tokenUser(pc *gophercloud.ProviderClient) (TokenUser, error) {
	user, err := pc.GetAuthResult().(tokens.CreateResult).ExtractUser()
	if err != nil {
		return TokenUser{}, fmt.Errorf("reading the user of the token Keystone issued: %w", err)
	}
	if user == nil {
		return TokenUser{}, nil
	}
	return TokenUser{ID: user.ID, Name: user.Name, DomainID: user.Domain.ID, DomainName: user.Domain.Name}, nil
}

// userOf names the user or application credential being authenticated, for errors.
func userOf(o gophercloud.AuthOptions) string {
	switch {
	case o.ApplicationCredentialID != "":
		return "application credential " + o.ApplicationCredentialID
	case o.ApplicationCredentialName != "":
		return "application credential " + o.ApplicationCredentialName
	case o.Username != "":
		return o.Username
	}
	return o.UserID
}

func projectOf(o gophercloud.AuthOptions) string {
	if o.TenantName != "" {
		return o.TenantName
	}
	if o.Scope != nil && o.Scope.ProjectName != "" {
		return o.Scope.ProjectName
	}
	return o.TenantID
}
