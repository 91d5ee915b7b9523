package neutronclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// request is one request a recording Neutron received.
type request struct {
	method, uri, body string
}

// recordingNeutron answers every request with status and reply and records it.
func recordingNeutron(t *testing.T, status int, reply string) (*Client, *[]request) {
	t.Helper()
	var got []request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, request{r.Method, r.URL.RequestURI(), string(body)})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(reply))
	}))
	t.Cleanup(srv.Close)
	c, err := ConnectEndpoint(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, &got
}

func wantRequests(t *testing.T, got []request, want ...request) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests:\n got  %q\n want %q", got, want)
	}
}

// Subnet pools are listed by IDs and name with only the fields of neutron.SubnetPool, and
// never by project: the pools a project allocates from are mostly shared by another.
func TestListSubnetPools(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusOK, `{"subnetpools": [{"id": "p1", "name": "ipv6-pool",
		"project_id": "admin-project", "ip_version": 6, "prefixes": ["2001:db8:a000::/40"], "shared": true}]}`)
	pools, err := c.ListSubnetPools(context.Background(), neutron.Filter{IDs: []string{"p1", "p2"}, Name: "ipv6 pool", ProjectID: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	want := []neutron.SubnetPool{{ID: "p1", Name: "ipv6-pool", ProjectID: "admin-project", IPVersion: 6, Prefixes: []string{"2001:db8:a000::/40"}, Shared: true}}
	if !reflect.DeepEqual(pools, want) {
		t.Errorf("pools = %+v, want %+v", pools, want)
	}
	_, err = c.ListSubnetPools(context.Background(), neutron.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	const fields = "fields=id&fields=name&fields=project_id&fields=ip_version&fields=prefixes&fields=shared"
	wantRequests(t, *got,
		request{"GET", "/v2.0/subnetpools?id=p1&id=p2&name=ipv6+pool&" + fields, ""},
		request{"GET", "/v2.0/subnetpools?" + fields, ""})
}

// What an attribute names is listed from its collection by IDs or name, with only the
// fields of neutron.Named and shared, and never by project: a shared one is another
// project's, and Neutron 2025.1 hides a QoS policy shared with a member's project from a
// list whose fields leave out shared.
func TestListNamed(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusOK, `{"policies": [{"id": "q1", "name": "gold", "project_id": "p", "rules": []}]}`)
	policies := neutron.Collection{Path: "qos/policies", Key: "policies", Noun: "QoS policy"}
	found, err := c.ListNamed(context.Background(), policies, neutron.Filter{Name: "gold", ProjectID: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []neutron.Named{{ID: "q1", Name: "gold", ProjectID: "p"}}; !reflect.DeepEqual(found, want) {
		t.Errorf("found = %+v, want %+v", found, want)
	}
	if _, err := c.ListNamed(context.Background(), policies, neutron.Filter{IDs: []string{"q1"}}); err != nil {
		t.Fatal(err)
	}
	const fields = "fields=id&fields=name&fields=project_id&fields=shared"
	wantRequests(t, *got,
		request{"GET", "/v2.0/qos/policies?name=gold&" + fields, ""},
		request{"GET", "/v2.0/qos/policies?id=q1&" + fields, ""})
}

// Ports are listed by project, networks and subnet (fixed_ips=subnet_id=<id>, escaped)
// with only the fields of neutron.Port.
func TestListPorts(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusOK, `{"ports": [{"id": "port1", "network_id": "n1",
		"device_owner": "network:router_interface", "device_id": "r1",
		"fixed_ips": [{"subnet_id": "s1", "ip_address": "10.0.0.1"}, {"subnet_id": "s2", "ip_address": "2001:db8::1"}]}]}`)
	ports, err := c.ListPorts(context.Background(), neutron.Filter{ProjectID: "pr", NetworkIDs: []string{"n1", "n2"}, SubnetID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []neutron.Port{{ID: "port1", NetworkID: "n1", DeviceOwner: "network:router_interface", DeviceID: "r1",
		FixedIPs: []neutron.FixedIP{{SubnetID: "s1", IPAddress: "10.0.0.1"}, {SubnetID: "s2", IPAddress: "2001:db8::1"}}}}
	if !reflect.DeepEqual(ports, want) {
		t.Errorf("ports = %+v, want %+v", ports, want)
	}
	if _, err := c.ListPorts(context.Background(), neutron.Filter{SubnetID: "s 1&x=y"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListPorts(context.Background(), neutron.Filter{DeviceOwner: "network:router_interface", DeviceID: "r1"}); err != nil {
		t.Fatal(err)
	}
	const fields = "fields=id&fields=network_id&fields=device_owner&fields=device_id&fields=fixed_ips"
	wantRequests(t, *got,
		request{"GET", "/v2.0/ports?project_id=pr&network_id=n1&network_id=n2&fixed_ips=subnet_id%3Ds1&" + fields, ""},
		// A subnet ID cannot add parameters of its own.
		request{"GET", "/v2.0/ports?fixed_ips=subnet_id%3Ds+1%26x%3Dy&" + fields, ""},
		request{"GET", "/v2.0/ports?device_owner=network%3Arouter_interface&device_id=r1&" + fields, ""})
}

// An empty list is no error, and a failed one is classified like any other call.
func TestListPoolsAndPortsErrors(t *testing.T) {
	c, _ := recordingNeutron(t, http.StatusOK, `{"ports": [], "ports_links": []}`)
	if ports, err := c.ListPorts(context.Background(), neutron.Filter{}); err != nil || len(ports) != 0 {
		t.Errorf("empty list: %v, %v", ports, err)
	}
	for _, tc := range []struct {
		status int
		reply  string
		list   func(*Client) error
		op     string
		kind   neutron.Kind
	}{
		{http.StatusForbidden, `{"NeutronError": {"type": "PolicyNotAuthorized", "message": "rule:get_port is disallowed by policy"}}`,
			func(c *Client) error { _, err := c.ListPorts(context.Background(), neutron.Filter{}); return err }, "list ports", neutron.KindRejected},
		{http.StatusServiceUnavailable, `{}`,
			func(c *Client) error { _, err := c.ListSubnetPools(context.Background(), neutron.Filter{}); return err }, "list subnet pools", neutron.KindUnavailable},
	} {
		c, _ := recordingNeutron(t, tc.status, tc.reply)
		err := tc.list(c)
		var ne *neutron.Error
		if !errors.As(err, &ne) || ne.Op != tc.op || ne.Kind != tc.kind || ne.Code != tc.status {
			t.Errorf("%d: err = %#v, want op %q, kind %v, code %d", tc.status, err, tc.op, tc.kind, tc.status)
		}
	}
}

// A subnet from a pool is created with subnetpool_id and prefixlen and no cidr; one with
// a CIDR sends neither pool field. Lists ask for subnetpool_id and read it.
func TestCreateSubnetFromPool(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusCreated, `{"subnet": {"id": "s1", "network_id": "n1", "cidr": "2001:db8:a000:1::/64",
		"ip_version": 6, "subnetpool_id": "p1", "gateway_ip": "2001:db8:a000:1::1"}}`)
	s, err := c.CreateSubnet(context.Background(), neutron.SubnetRequest{NetworkID: "n1", Name: "k8s_ns_a", Description: "d",
		SubnetPoolID: "p1", PrefixLength: 64, IPVersion: 6, IPv6Modes: neutron.IPv6Modes{AddressMode: "slaac", RAMode: "slaac"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "s1" || s.CIDR != "2001:db8:a000:1::/64" || s.SubnetPoolID != "p1" {
		t.Errorf("created subnet = %+v, want s1 with the allocated CIDR and pool p1", s)
	}
	if _, err := c.CreateSubnet(context.Background(), neutron.SubnetRequest{NetworkID: "n1", CIDR: "10.0.0.0/24", IPVersion: 4}); err != nil {
		t.Fatal(err)
	}
	wantRequests(t, *got,
		request{"POST", "/v2.0/subnets", `{"subnet":{"network_id":"n1","name":"k8s_ns_a","description":"d","subnetpool_id":"p1","prefixlen":64,"ip_version":6,"ipv6_address_mode":"slaac","ipv6_ra_mode":"slaac"}}`},
		request{"POST", "/v2.0/subnets", `{"subnet":{"network_id":"n1","name":"","description":"","cidr":"10.0.0.0/24","ip_version":4}}`})

	c, got = recordingNeutron(t, http.StatusOK, `{"subnets": [{"id": "s1", "cidr": "10.96.0.0/26", "subnetpool_id": "p4"}, {"id": "s2", "cidr": "10.0.0.0/24", "subnetpool_id": null}]}`)
	subs, err := c.ListSubnets(context.Background(), neutron.Filter{NetworkIDs: []string{"n1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 2 || subs[0].SubnetPoolID != "p4" || subs[1].SubnetPoolID != "" {
		t.Errorf("subnets = %+v, want s1 from pool p4 and s2 from none", subs)
	}
	if len(*got) != 1 || !asksForField((*got)[0].uri, "subnetpool_id") {
		t.Errorf("requests = %q, want one list asking for subnetpool_id", *got)
	}
}

// A pool Neutron does not know, or one the project may not use, is 404; a prefix length
// the pool does not allow is 400; a pool without room is Neutron 21's 500, a conflict.
func TestCreateSubnetFromPoolErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		reply  string
		kind   neutron.Kind
	}{
		{http.StatusNotFound, `{"NeutronError": {"type": "SubnetPoolNotFound", "message": "Subnet pool p9 could not be found."}}`, neutron.KindNotFound},
		{http.StatusBadRequest, `{"NeutronError": {"type": "MaxPrefixSubnetAllocationError", "message": "Unable to allocate subnet with prefix length 70, maximum allowed prefix is 64."}}`, neutron.KindRejected},
		{http.StatusInternalServerError, `{"NeutronError": {"type": "SubnetAllocationError", "message": "Failed to allocate subnet: Insufficient prefix space to allocate subnet size /70."}}`, neutron.KindConflict},
	} {
		c, _ := recordingNeutron(t, tc.status, tc.reply)
		_, err := c.CreateSubnet(context.Background(), neutron.SubnetRequest{NetworkID: "n1", SubnetPoolID: "p9", PrefixLength: 70, IPVersion: 6})
		var ne *neutron.Error
		if !errors.As(err, &ne) || ne.Kind != tc.kind || ne.Code != tc.status || ne.Op != "create subnet" {
			t.Errorf("%d: err = %#v, want kind %v", tc.status, err, tc.kind)
		}
	}
}

func asksForField(uri, field string) bool {
	u, err := url.ParseRequestURI(uri)
	return err == nil && slices.Contains(u.Query()["fields"], field)
}
