package registry

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
)

// gophercloudEnv is what gophercloud's clouds.Parse reads from the environment.
var gophercloudEnv = []string{"OS_CLOUD", "OS_REGION_NAME", "OS_INTERFACE", "OS_CLIENT_CONFIG_FILE", "OS_AUTH_URL", "XDG_CONFIG_HOME"}

func clearGophercloudEnv(t testing.TB) {
	for _, name := range gophercloudEnv {
		t.Setenv(name, "")
	}
}

// parseWithGophercloud is what the controller used to authenticate with: gophercloud's
// own reading of a clouds.yaml, given the region and interface explicitly.
func parseWithGophercloud(doc []byte, cloudName, region, endpointType string) (gophercloud.AuthOptions, gophercloud.EndpointOpts, error) {
	auth, endpoint, _, err := clouds.Parse(
		clouds.WithCloudsYAML(bytes.NewReader(doc)),
		clouds.WithCloudName(cloudName),
		clouds.WithRegion(region),
		clouds.WithEndpointType(endpointType),
	)
	return auth, endpoint, err
}

// TestAuthOptionsMatchGophercloud is a differential test: for valid entries written as
// clouds.yaml documents them, the options built from the strict decoding equal those of
// gophercloud's clouds.Parse, but for the auth URL, which is normalized.
func TestAuthOptionsMatchGophercloud(t *testing.T) {
	clearGophercloudEnv(t)
	for _, tt := range []struct {
		name, cloud, region, endpointType string
	}{
		{"password, domains by name", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: alice
      password: pw
      user_domain_name: Default
      project_name: team-a
      project_domain_name: Default
    region_name: RegionOne
`, "RegionOne", "public"},
		{"password, domains by ID", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: alice
      password: pw
      user_domain_id: default
      project_name: team-a
      project_domain_id: default
`, "", "public"},
		{"user ID and project ID", `
    auth: {auth_url: "https://keystone.example.com:5000/v3", user_id: 0a1b-2c3d, password: pw, project_id: p-1}
    interface: internal
`, "", "internal"},
		{"domain for both", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: alice
      password: pw
      domain_name: Team
      project_name: team-a
    endpoint_type: adminURL
`, "", "adminURL"},
		{"domain scope", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: alice
      password: pw
      user_domain_id: default
      domain_id: d-1
`, "", "public"},
		{"system scope", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: admin
      password: pw
      user_domain_name: Default
      system_scope: all
    auth_type: v3password
`, "", "public"},
		{"project ID and name (the dashboard's file)", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      username: alice
      password: pw
      project_id: 9f0a
      project_name: team-a
      user_domain_name: Default
    region_name: RegionOne
    interface: public
    identity_api_version: 3
    verify: true
`, "RegionOne", "public"},
		{"application credential by ID", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      application_credential_id: ac-1
      application_credential_secret: s
    auth_type: v3applicationcredential
    region_name: RegionTwo
    interface: internalURL
`, "RegionTwo", "internalURL"},
		{"application credential by name", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      application_credential_name: ci
      application_credential_secret: s
      username: alice
      user_domain_name: Default
    auth_type: v3applicationcredential
`, "", "public"},
		{"application credential by name and user ID", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      application_credential_name: ci
      application_credential_secret: s
      user_id: u-1
    auth_type: v3applicationcredential
`, "", "public"},
		{"token, project by ID", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      token: tok
      project_id: p-1
    auth_type: v3token
`, "", "public"},
		{"token, project by name", `
    auth:
      auth_url: https://keystone.example.com:5000/v3
      token: tok
      project_name: team-a
      project_domain_id: default
    auth_type: token
`, "", "public"},
		{"auth URL spelt otherwise", `
    auth:
      auth_url: HTTPS://Keystone.EXAMPLE.com:5000/v3/
      username: alice
      password: pw
      user_domain_name: Default
      project_name: team-a
      project_domain_name: Default
`, "", "public"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := []byte("clouds:\n  team-a:" + tt.cloud)
			ours, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: doc}, "team-a", policyForTest(t))
			if err != nil {
				t.Fatalf("ParseCloud: %v", err)
			}
			theirs, theirEndpoint, err := parseWithGophercloud(doc, "team-a", tt.region, tt.endpointType)
			if err != nil {
				t.Fatalf("clouds.Parse: %v", err)
			}
			if n, err := NormalizeAuthURL(theirs.IdentityEndpoint); err != nil || n != ours.Auth.IdentityEndpoint {
				t.Errorf("auth URL %q; gophercloud's %q normalizes to %q (%v)", ours.Auth.IdentityEndpoint, theirs.IdentityEndpoint, n, err)
			}
			theirs.IdentityEndpoint = ours.Auth.IdentityEndpoint
			if !reflect.DeepEqual(ours.Auth, theirs) {
				t.Errorf("auth options\n ours %+v scope %+v\ntheirs %+v scope %+v", ours.Auth, ours.Auth.Scope, theirs, theirs.Scope)
			}
			if !reflect.DeepEqual(ours.Endpoint, theirEndpoint) {
				t.Errorf("endpoint options: ours %+v, theirs %+v", ours.Endpoint, theirEndpoint)
			}
		})
	}
}

// TestParseCloudReadsNothingFromTheEnvironment: the controller's own OS_* variables and
// clouds.yaml search path must not reach a tenant's cloud.
func TestParseCloudReadsNothingFromTheEnvironment(t *testing.T) {
	clearGophercloudEnv(t)
	data := map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth)}
	want, err := ParseCloud(testSecret, data, "team-a", policyForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range map[string]string{"OS_CLOUD": "operator", "OS_REGION_NAME": "OperatorRegion", "OS_INTERFACE": "admin",
		"OS_CLIENT_CONFIG_FILE": "/nonexistent/clouds.yaml", "OS_AUTH_URL": evilURL, "OS_PASSWORD": "operator-password", "OS_CACERT": "/etc/ssl/ca.pem"} {
		t.Setenv(name, value)
	}
	got, err := ParseCloud(testSecret, data, "team-a", policyForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with the operator's environment\n got %+v\nwant %+v", got, want)
	}
}
