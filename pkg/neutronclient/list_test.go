package neutronclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A list Neutron splits into pages arrives whole, each page decoded into the controller's
// types, and the query carries the filter.
func TestListsFollowNextLinks(t *testing.T) {
	var queries []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.Path+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/v2.0/networks" && r.URL.Query().Get("marker") == "":
			_, _ = w.Write([]byte(`{"networks": [{"id": "n1", "tags": ["a"], "mtu": 1450}],
				"networks_links": [{"rel": "next", "href": "` + srv.URL + `/v2.0/networks?marker=n1"}]}`))
		case r.URL.Path == "/v2.0/networks":
			_, _ = w.Write([]byte(`{"extra": {"nested": [1, {"networks": []}]}, "networks": [{"id": "n2"}], "networks_links": [{"rel": "previous", "href": "` + srv.URL + `/v2.0/networks?marker=n2&page_reverse=True"}]}`))
		case r.URL.Path == "/v2.0/subnets":
			_, _ = w.Write([]byte(`{"subnets": [{"id": "s1", "network_id": "n1", "cidr": "10.0.0.0/24",
				"allocation_pools": [{"start": "10.0.0.2", "end": "10.0.0.9"}], "host_routes": [{"destination": "0.0.0.0/0", "nexthop": "10.0.0.1"}]}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := ConnectEndpoint(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}

	nets, err := c.ListNetworks(context.Background(), neutron.Filter{Description: "Managed by x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 2 || nets[0].ID != "n1" || nets[0].MTU != 1450 || !slices.Equal(nets[0].Tags, []string{"a"}) || nets[1].ID != "n2" {
		t.Errorf("networks = %+v, want n1 (MTU 1450, tag a) from the first page and n2 from the next", nets)
	}
	if len(queries) != 2 || !strings.HasPrefix(queries[0], "/v2.0/networks?description=Managed+by+x&fields=id") || queries[1] != "/v2.0/networks?marker=n1" {
		t.Errorf("requests = %q, want the filtered list, then its next link", queries)
	}

	subs, err := c.ListSubnets(context.Background(), neutron.Filter{NetworkIDs: []string{"n1"}})
	if err != nil {
		t.Fatal(err)
	}
	want := neutron.Subnet{ID: "s1", NetworkID: "n1", CIDR: "10.0.0.0/24", AllocationPools: []neutron.Pool{{Start: "10.0.0.2", End: "10.0.0.9"}},
		HostRoutes: []neutron.HostRoute{{Destination: "0.0.0.0/0", NextHop: "10.0.0.1"}}}
	if len(subs) != 1 || !equalSubnet(subs[0], want) || !slices.Equal(subs[0].AllocationPools, want.AllocationPools) || !slices.Equal(subs[0].HostRoutes, want.HostRoutes) {
		t.Errorf("subnets = %+v, want [%+v]", subs, want)
	}
}

// A failed list is classified like any other call, and a reply that is not the list is
// an error, not an empty list.
func TestListErrors(t *testing.T) {
	status, reply := http.StatusServiceUnavailable, `{}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(reply))
	}))
	defer srv.Close()
	c, err := ConnectEndpoint(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListNetworks(context.Background(), neutron.Filter{})
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != neutron.KindUnavailable || ne.Code != http.StatusServiceUnavailable {
		t.Errorf("503: err = %v, want a Neutron error of kind unavailable with code 503", err)
	}

	for _, bad := range []string{`{"networks": [{"id": 7}]}`, `{"networks": {}}`, `[]`, `{"networks": [{"id": "n1"}]`} {
		status, reply = http.StatusOK, bad
		if _, err := c.ListNetworks(context.Background(), neutron.Filter{}); err == nil {
			t.Errorf("reply %s was accepted", bad)
		}
	}
}

func equalSubnet(a, b neutron.Subnet) bool {
	return a.ID == b.ID && a.NetworkID == b.NetworkID && a.Name == b.Name && a.Description == b.Description &&
		slices.Equal(a.Tags, b.Tags) && a.CIDR == b.CIDR
}
