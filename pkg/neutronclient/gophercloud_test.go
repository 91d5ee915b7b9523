package neutronclient

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func TestListQueriesAskForTheFieldsTheControllerReads(t *testing.T) {
	q, err := networkQuery{ListOpts: networks.ListOpts{Description: "Managed by x"}}.ToNetworkListQuery()
	want := "?description=Managed+by+x"
	for _, f := range networkFields {
		want += "&fields=" + f
	}
	if err != nil || q != want {
		t.Errorf("query = %q (%v), want %q", q, err, want)
	}
	if got := withRepeated("", "fields", []string{"id"}); got != "?fields=id" {
		t.Errorf("withRepeated on an empty query = %q", got)
	}
}

// Several IDs or networks are repeated parameters, which Neutron ORs; the tag to leave out
// is not-tags.
func TestListQueriesRepeatIDsAndNetworks(t *testing.T) {
	q, err := networkQuery{ListOpts: networks.ListOpts{NotTags: "k8s-cluster=c1"}, ids: []string{"a", "b"}}.ToNetworkListQuery()
	if err != nil || !strings.HasPrefix(q, "?not-tags=k8s-cluster%3Dc1&id=a&id=b&fields=") {
		t.Errorf("network query = %q (%v), want not-tags, then id=a&id=b, then the fields", q, err)
	}
	q, err = subnetQuery{networkIDs: []string{"n1", "n2"}}.ToSubnetListQuery()
	if err != nil || !strings.HasPrefix(q, "?network_id=n1&network_id=n2&fields=") {
		t.Errorf("subnet query = %q (%v), want network_id=n1&network_id=n2, then the fields", q, err)
	}
}

// A field the Store reads but the list calls do not ask for would arrive empty, and
// nothing else would notice: decoding only the fields asked for must lose nothing.
func TestFieldsListedAreAllTheStoreReads(t *testing.T) {
	// Replies as Neutron gives them, with every field set and some the controller ignores.
	network := `{"id": "n1", "name": "k8s_ns_a_uid", "description": "d", "tags": ["t"],
		"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:06Z",
		"mtu": 1450, "status": "ACTIVE", "shared": false, "revision_number": 3}`
	subnet := `{"id": "s1", "network_id": "n1", "name": "k8s_ns_a_uid", "description": "d", "tags": ["t"],
		"cidr": "10.0.0.0/24", "ip_version": 4, "gateway_ip": "10.0.0.1",
		"allocation_pools": [{"start": "10.0.0.2", "end": "10.0.0.254"}], "enable_dhcp": true,
		"dns_nameservers": ["10.0.0.53", "10.0.0.54"], "host_routes": [{"destination": "10.1.0.0/16", "nexthop": "10.0.0.254"}],
		"subnetpool_id": "p1", "created_at": "2026-01-02T03:04:05Z", "revision_number": 1}`
	pool := `{"id": "p1", "name": "ipv6-pool", "project_id": "admin", "ip_version": 6, "prefixes": ["2001:db8:a000::/40"],
		"shared": true, "default_prefixlen": 64, "min_prefixlen": 56, "max_prefixlen": 64, "is_default": false, "revision_number": 1}`
	port := `{"id": "port1", "network_id": "n1", "device_owner": "compute:nova", "device_id": "vm1", "project_id": "pr",
		"fixed_ips": [{"subnet_id": "s1", "ip_address": "10.0.0.5"}], "mac_address": "fa:16:3e:00:00:01", "status": "DOWN"}`

	checkFieldsLoseNothing[neutron.Network](t, network, networkFields)
	checkFieldsLoseNothing[neutron.Subnet](t, subnet, subnetFields)
	checkFieldsLoseNothing[neutron.SubnetPool](t, pool, poolFields)
	checkFieldsLoseNothing[neutron.Port](t, port, portFields)
}

func checkFieldsLoseNothing[T any](t *testing.T, reply string, fields []string) {
	t.Helper()
	var whole map[string]json.RawMessage
	if err := json.Unmarshal([]byte(reply), &whole); err != nil {
		t.Fatal(err)
	}
	asked := map[string]json.RawMessage{}
	for name, v := range whole {
		if slices.Contains(fields, name) {
			asked[name] = v
		}
	}
	trimmed, _ := json.Marshal(asked)

	var full, listed T
	if err := json.Unmarshal([]byte(reply), &full); err != nil {
		t.Fatalf("decoding a %T: %v", full, err)
	}
	if err := json.Unmarshal(trimmed, &listed); err != nil {
		t.Fatalf("decoding a %T: %v", listed, err)
	}
	if !reflect.DeepEqual(full, listed) {
		t.Errorf("%T decoded from the fields asked for (%v) = %+v, want %+v", full, fields, listed, full)
	}
	if reflect.ValueOf(full).IsZero() {
		t.Errorf("%T decoded nothing from %s", full, reply)
	}
}

// Requests are the JSON of the structs in resources.go under the resource's key; a field
// left nil is not sent, so Neutron keeps what it has.
func TestRequestBodiesSendOnlyWhatIsSet(t *testing.T) {
	gw, off := neutron.GatewayIP("10.0.0.1"), false
	for _, tc := range []struct {
		body body
		want string
	}{
		{body{"subnet", neutron.SubnetAttrs{GatewayIP: &gw}}, `{"subnet":{"gateway_ip":"10.0.0.1"}}`},
		// No gateway is null, not an empty address.
		{body{"subnet", neutron.SubnetAttrs{GatewayIP: new(neutron.GatewayIP)}}, `{"subnet":{"gateway_ip":null}}`},
		{body{"subnet", neutron.SubnetRequest{CIDR: "2001:db8::/64", IPVersion: 6, IPv6Modes: neutron.IPv6Modes{AddressMode: "slaac", RAMode: "slaac"}}},
			`{"subnet":{"network_id":"","name":"","description":"","cidr":"2001:db8::/64","ip_version":6,"ipv6_address_mode":"slaac","ipv6_ra_mode":"slaac"}}`},
		{body{"subnet", neutron.SubnetAttrs{AllocationPools: []neutron.Pool{{Start: "10.0.0.2", End: "10.0.0.9"}}}},
			`{"subnet":{"allocation_pools":[{"start":"10.0.0.2","end":"10.0.0.9"}]}}`},
		{body{"network", neutron.NetworkRequest{Name: "n", Description: "d"}}, `{"network":{"name":"n","description":"d"}}`},
		// An empty list is sent, to clear what Neutron has; false is sent too.
		{body{"subnet", neutron.SubnetAttrs{DNSNameservers: []string{}}}, `{"subnet":{"dns_nameservers":[]}}`},
		{body{"subnet", neutron.SubnetAttrs{HostRoutes: []neutron.HostRoute{{Destination: "10.1.0.0/16", NextHop: "10.0.0.254"}}}},
			`{"subnet":{"host_routes":[{"destination":"10.1.0.0/16","nexthop":"10.0.0.254"}]}}`},
		{body{"subnet", neutron.SubnetAttrs{EnableDHCP: &off}}, `{"subnet":{"enable_dhcp":false}}`},
	} {
		m, err := tc.body.toMap()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(m)
		if string(got) != tc.want {
			t.Errorf("request = %s, want %s", got, tc.want)
		}
	}
}
