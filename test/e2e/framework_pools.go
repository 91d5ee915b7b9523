//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// The local cloud's shared subnet pools, which hack/local-neutron.sh start makes as the
// admin: every project may allocate subnets from them. No other test uses their ranges.
const (
	// IPv6PoolName is 2001:db8:a000::/40, prefix lengths 56 to 64, default 64.
	IPv6PoolName = "ipv6-pool"
	// IPv4PoolName is 10.224.0.0/16, prefix lengths 22 to 28, default 26.
	IPv4PoolName = "ipv4-pool"
)

// LocalSubnetPool is a subnet pool as Neutron's admin sees it.
type LocalSubnetPool struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	ProjectID string   `json:"project_id"`
	IPVersion int      `json:"ip_version"`
	Prefixes  []string `json:"prefixes"`
	Shared    bool     `json:"shared"`
}

// SubnetPool returns the local cloud's shared subnet pool of the IP version family (4 or
// 6), read through the admin (noauth) endpoint; the test fails when it is missing.
func SubnetPool(t testing.TB, family int) LocalSubnetPool {
	t.Helper()
	name := map[int]string{4: IPv4PoolName, 6: IPv6PoolName}[family]
	if name == "" {
		t.Fatalf("no subnet pool of IP version %d: 4 or 6", family)
	}
	var doc struct {
		Pools []LocalSubnetPool `json:"subnetpools"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/subnetpools?name="+url.QueryEscape(name), nil, &doc, http.StatusOK)
	if len(doc.Pools) != 1 || !doc.Pools[0].Shared || doc.Pools[0].IPVersion != family {
		t.Fatalf("want one shared IPv%d subnet pool named %s (hack/local-neutron.sh start makes it), found %+v", family, name, doc.Pools)
	}
	return doc.Pools[0]
}

// SubnetsAllocatedFrom lists, as Neutron's admin, the subnets of every project that were
// allocated from the subnet pool poolID.
func SubnetsAllocatedFrom(t testing.TB, poolID string) []NeutronSubnet {
	t.Helper()
	var doc struct {
		Subnets []NeutronSubnet `json:"subnets"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/subnets?subnetpool_id="+url.QueryEscape(poolID), nil, &doc, http.StatusOK)
	return doc.Subnets
}

// DriverAs returns the controller's Neutron driver logged in as cloud of the local
// Keystone's clouds.yaml (through the catalog's network endpoint, region RegionOne): what
// a project's member user may do and see, with Neutron's policies applied.
func (k Keystone) DriverAs(t testing.TB, cloud string) *neutronclient.Client {
	t.Helper()
	ao, eo, tlsConfig, err := clouds.Parse(clouds.WithLocations(k.CloudsYAML), clouds.WithCloudName(cloud))
	if err != nil {
		t.Fatalf("reading cloud %s from %s: %v", cloud, k.CloudsYAML, err)
	}
	c, err := neutronclient.ConnectKeystone(Ctx(t, 60*time.Second), neutronclient.Credentials{Name: "cloud " + cloud, Auth: ao, Endpoint: eo, TLS: tlsConfig}, neutronclient.Hooks{})
	if err != nil {
		t.Fatalf("connecting to Neutron as %s: %v", cloud, err)
	}
	return c
}

// networkClientAs returns a networking client logged in as cloud, for the requests a
// tenant makes that the controller's driver has no method for.
func (k Keystone) networkClientAs(t testing.TB, ctx context.Context, cloud string) *gophercloud.ServiceClient {
	t.Helper()
	pc, eo := k.AuthenticatedAs(t, ctx, cloud)
	sc, err := openstack.NewNetworkV2(pc, eo)
	if err != nil {
		t.Fatalf("network endpoint of %s: %v", cloud, err)
	}
	return sc
}

// TenantPort is a port a tenant made: its ID, the device it says it is for, and the
// addresses Neutron gave it.
type TenantPort struct {
	ID       string            `json:"id"`
	DeviceID string            `json:"device_id"`
	FixedIPs []neutron.FixedIP `json:"fixed_ips"`
}

// CreatePortAs creates, as cloud's user (a project's member, as the tenant would for a
// VM), a port on network with an address on subnet, and returns it. The port keeps the
// subnet and the network from being deleted (409 in use) until DeletePortAs; the end of
// the test deletes it as the admin if it is still there.
func (k Keystone) CreatePortAs(t testing.TB, cloud, networkID, subnetID string) TenantPort {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	sc := k.networkClientAs(t, ctx, cloud)
	var doc struct {
		Port TenantPort `json:"port"`
	}
	_, err := sc.Post(ctx, sc.ServiceURL("ports"), map[string]any{"port": map[string]any{
		"network_id": networkID, "name": "e2e-tenant-port", "device_id": "e2e-vm-" + RandomSuffix(6),
		"fixed_ips": []map[string]string{{"subnet_id": subnetID}},
	}}, &doc, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}})
	if err != nil {
		t.Fatalf("creating a port on subnet %s of network %s as %s: %v", subnetID, networkID, cloud, err)
	}
	t.Cleanup(func() {
		if code, body, err := neutronDo(http.MethodDelete, "v2.0/ports/"+doc.Port.ID, nil); err != nil || (code != http.StatusNoContent && code != http.StatusNotFound) {
			t.Logf("cleanup: deleting port %s: %d %s %v", doc.Port.ID, code, body, err)
		}
	})
	return doc.Port
}

// DeletePortAs deletes the port portID as cloud's user.
func (k Keystone) DeletePortAs(t testing.TB, cloud, portID string) {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	sc := k.networkClientAs(t, ctx, cloud)
	if _, err := sc.Delete(ctx, sc.ServiceURL("ports", portID), &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}}); err != nil {
		t.Fatalf("deleting port %s as %s: %v", portID, cloud, err)
	}
}
