package neutron

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
)

// requestTimeout bounds one Neutron HTTP request, so a hung Neutron shows up as an
// "unavailable" error and a retry instead of a stuck worker.
const requestTimeout = 30 * time.Second

const userAgent = "network-controller"

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
	pc := &gophercloud.ProviderClient{HTTPClient: http.Client{Timeout: requestTimeout}}
	pc.UserAgent.Prepend(userAgent)
	sc := &gophercloud.ServiceClient{ProviderClient: pc, Endpoint: endpoint, ResourceBase: endpoint + "v2.0/"}
	return NewClient(sc, observe), nil
}

// ConnectCloud authenticates with Keystone using the named cloud of clouds.yaml (looked up
// the standard way: OS_CLIENT_CONFIG_FILE, the working directory, ~/.config/openstack,
// /etc/openstack) and returns a Driver for that cloud's Neutron.
//
// The token is kept and shared by all calls; a new one is requested only when Neutron
// answers 401 (expired or revoked), once for all calls waiting at that moment. A failed
// first authentication is an *Error of Service "keystone": KindRejected for refused
// credentials, KindUnavailable when Keystone does not answer.
func ConnectCloud(ctx context.Context, cloud string, observe CallObserver) (*Client, error) {
	authOpts, endpointOpts, tlsConfig, err := clouds.Parse(clouds.WithCloudName(cloud))
	if err != nil {
		return nil, fmt.Errorf("reading cloud %q from clouds.yaml: %w", cloud, err)
	}
	// Tokens expire; let gophercloud authenticate again instead of failing every call.
	authOpts.AllowReauth = true
	pc, err := openstack.NewClient(authOpts.IdentityEndpoint)
	if err != nil {
		return nil, fmt.Errorf("cloud %q: auth_url %q: %w", cloud, authOpts.IdentityEndpoint, err)
	}
	httpClient := http.Client{Timeout: requestTimeout}
	if tlsConfig != nil {
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.TLSClientConfig = tlsConfig
		httpClient.Transport = transport
	}
	pc.HTTPClient = httpClient
	// Before authenticating: the re-authentication client is a copy made now, and its
	// token requests should be recognisable in Keystone's request log as well.
	pc.UserAgent.Prepend(userAgent)
	if err := openstack.Authenticate(ctx, pc, authOpts); err != nil {
		return nil, fmt.Errorf("cloud %q (user %q, project %q): %w", cloud, authOpts.Username, projectOf(authOpts), wrapAuthError(authOpts.IdentityEndpoint, err))
	}
	sc, err := openstack.NewNetworkV2(pc, endpointOpts)
	if err != nil {
		return nil, fmt.Errorf("finding the network endpoint of cloud %q in the Keystone catalog: %w", cloud, err)
	}
	return NewClient(sc, observe), nil
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
