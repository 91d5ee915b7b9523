//go:build e2e

package e2e

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	"sigs.k8s.io/yaml"
)

// MemberCloud is the clouds.yaml entry of the member-role user of project k8s that
// hack/local-keystone.sh makes; the controller runs as it in the Keystone tests.
const MemberCloud = "k8s"

// AdminCloud is the clouds.yaml entry of the local cloud's admin.
const AdminCloud = "k8s-admin"

// The regions of the local Keystone's catalog: every cloud in clouds.yaml is in RegionOne,
// whose network endpoint shares its database with the noauth Neutron; RegionTwo's
// neutron-server has a database of its own, so it holds other networks.
const (
	RegionOne = "RegionOne"
	RegionTwo = "RegionTwo"
)

// Keystone describes the local Keystone that hack/e2e.sh started.
type Keystone struct {
	AuthURL    string
	CloudsYAML string
	AccessLog  string
	// NeutronLog is the log of the Keystone-authenticated neutron-server, one line per request.
	NeutronLog string
	// RegionTwoEndpoint is the network endpoint of region RegionTwo in the catalog, and
	// RegionTwoLog its neutron-server's log.
	RegionTwoEndpoint string
	RegionTwoLog      string
	// TokenLifetime is Keystone's [token] expiration.
	TokenLifetime time.Duration
}

// LocalKeystone returns the local Keystone from the environment hack/e2e.sh sets, and
// fails the test when it is missing in CI (skips otherwise).
func LocalKeystone(t testing.TB) Keystone {
	t.Helper()
	k := Keystone{
		AuthURL:    os.Getenv("KEYSTONE_AUTH_URL"),
		CloudsYAML: os.Getenv("KEYSTONE_CLOUDS_YAML"),
		AccessLog:  os.Getenv("KEYSTONE_ACCESS_LOG"),
		NeutronLog: os.Getenv("NEUTRON_KEYSTONE_LOG"),

		RegionTwoEndpoint: os.Getenv("NEUTRON_REGION_TWO_ENDPOINT"),
		RegionTwoLog:      os.Getenv("NEUTRON_REGION_TWO_LOG"),
	}
	secs, err := strconv.Atoi(os.Getenv("KEYSTONE_TOKEN_EXPIRATION"))
	if os.Getenv("E2E_LOCAL_KEYSTONE") != "1" || k.AuthURL == "" || k.CloudsYAML == "" || k.AccessLog == "" || k.NeutronLog == "" ||
		k.RegionTwoEndpoint == "" || k.RegionTwoLog == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the local Keystone is not configured in CI (E2E_LOCAL_KEYSTONE, KEYSTONE_AUTH_URL, KEYSTONE_CLOUDS_YAML, KEYSTONE_ACCESS_LOG, NEUTRON_KEYSTONE_LOG, NEUTRON_REGION_TWO_ENDPOINT, NEUTRON_REGION_TWO_LOG, KEYSTONE_TOKEN_EXPIRATION): run hack/e2e.sh")
		}
		t.Skip("the local Keystone is not configured: run hack/e2e.sh")
	}
	k.TokenLifetime = time.Duration(secs) * time.Second
	return k
}

// ControllerArgs are the flags that make a controller authenticate through clouds.yaml
// as cloud instead of talking to the noauth Neutron.
func (k Keystone) ControllerArgs(cloud string) []string {
	// An empty -neutron-endpoint after the framework's default leaves -os-cloud alone.
	return []string{"-neutron-endpoint=", "-os-cloud=" + cloud}
}

// ControllerEnv points clouds.yaml lookups at the file hack/local-keystone.sh wrote.
func (k Keystone) ControllerEnv() []string {
	return []string{"OS_CLIENT_CONFIG_FILE=" + k.CloudsYAML}
}

// CloudsYAMLInRegion returns CloudsYAMLOf(t, cloud) with region_name set to region: the
// same credentials, another region of the local cloud.
func (k Keystone) CloudsYAMLInRegion(t testing.TB, cloud, region string) string {
	t.Helper()
	var file struct {
		Clouds map[string]map[string]any `json:"clouds"`
	}
	if err := yaml.Unmarshal([]byte(k.CloudsYAMLOf(t, cloud)), &file); err != nil {
		t.Fatalf("parsing cloud %s: %v", cloud, err)
	}
	entry := file.Clouds[cloud]
	if entry == nil {
		t.Fatalf("cloud %s is not a mapping", cloud)
	}
	entry["region_name"] = region
	out, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// RegionTwoNetworks lists, as the admin (AdminCloud), every network of region RegionTwo's
// Neutron (IDs, names, descriptions, tags), sorted by ID.
func (k Keystone) RegionTwoNetworks(t testing.TB) []NeutronNetwork {
	t.Helper()
	return k.NetworksInRegion(t, AdminCloud, RegionTwo)
}

// NetworksInRegion lists the networks cloud's user sees through the network endpoint of
// region in the catalog, sorted by ID. For RegionTwo it checks that the catalog's endpoint
// is RegionTwoEndpoint.
func (k Keystone) NetworksInRegion(t testing.TB, cloud, region string) []NeutronNetwork {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	pc, eo := k.AuthenticatedAs(t, ctx, cloud)
	sc, err := openstack.NewNetworkV2(pc, gophercloud.EndpointOpts{Region: region, Availability: eo.Availability})
	if err != nil {
		t.Fatalf("network endpoint of region %s: %v", region, err)
	}
	if region == RegionTwo && sc.Endpoint != k.RegionTwoEndpoint {
		t.Fatalf("the catalog's network endpoint of region %s is %s, hack/local-keystone.sh env says %s", region, sc.Endpoint, k.RegionTwoEndpoint)
	}
	pages, err := networks.List(sc, networks.ListOpts{}).AllPages(ctx)
	if err != nil {
		t.Fatalf("listing the networks of region %s as %s: %v", region, cloud, err)
	}
	all, err := networks.ExtractNetworks(pages)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]NeutronNetwork, 0, len(all))
	for _, n := range all {
		out = append(out, NeutronNetwork{ID: n.ID, Name: n.Name, Description: n.Description, Tags: n.Tags, RevisionNumber: n.RevisionNumber})
	}
	slices.SortFunc(out, func(a, b NeutronNetwork) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// ProjectID returns the ID of cloud's project, from a token of its own (whose request
// does not carry the controller's user agent).
func (k Keystone) ProjectID(t testing.TB, cloud string) string {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	pc, _ := k.AuthenticatedAs(t, ctx, cloud)
	res, ok := pc.GetAuthResult().(tokens.CreateResult)
	if !ok {
		t.Fatalf("unexpected auth result %T", pc.GetAuthResult())
	}
	p, err := res.ExtractProject()
	if err != nil || p == nil {
		t.Fatalf("project of cloud %s: %v", cloud, err)
	}
	return p.ID
}
