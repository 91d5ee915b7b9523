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
	"github.com/gophercloud/gophercloud/v2/openstack/config"
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
func ConnectCloud(ctx context.Context, cloud string, observe CallObserver) (*Client, error) {
	authOpts, endpointOpts, tlsConfig, err := clouds.Parse(clouds.WithCloudName(cloud))
	if err != nil {
		return nil, fmt.Errorf("reading cloud %q from clouds.yaml: %w", cloud, err)
	}
	// Tokens expire; let gophercloud authenticate again instead of failing every call.
	authOpts.AllowReauth = true
	pc, err := config.NewProviderClient(ctx, authOpts,
		config.WithTLSConfig(tlsConfig),
		config.WithHTTPClient(http.Client{Timeout: requestTimeout}))
	if err != nil {
		return nil, fmt.Errorf("authenticating to cloud %q: %w", cloud, err)
	}
	pc.UserAgent.Prepend(userAgent)
	sc, err := openstack.NewNetworkV2(pc, endpointOpts)
	if err != nil {
		return nil, fmt.Errorf("finding the network endpoint of cloud %q: %w", cloud, err)
	}
	return NewClient(sc, observe), nil
}
