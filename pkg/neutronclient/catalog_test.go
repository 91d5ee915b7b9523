package neutronclient

import (
	"strings"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"
)

func TestNetworkEndpointFromCatalog(t *testing.T) {
	catalog := &tokens.ServiceCatalog{Entries: []tokens.CatalogEntry{
		{Type: "identity", Name: "keystone", Endpoints: []tokens.Endpoint{{Interface: "public", Region: "RegionOne", URL: "http://keystone/v3"}}},
		{Type: "network", Name: "neutron", Endpoints: []tokens.Endpoint{
			{Interface: "internal", Region: "RegionOne", URL: "http://neutron-internal:9696"},
			{Interface: "public", Region: "RegionOne", URL: "http://neutron-one:9696"},
			{Interface: "public", RegionID: "RegionTwo", URL: "http://neutron-two:9696/"},
		}},
	}}
	cases := []struct {
		name       string
		eo         gophercloud.EndpointOpts
		want       string // "" for an error
		wantRegion string
	}{
		{"public by default, first region", gophercloud.EndpointOpts{}, "http://neutron-one:9696/", "RegionOne"},
		{"region by ID", gophercloud.EndpointOpts{Region: "RegionTwo"}, "http://neutron-two:9696/", "RegionTwo"},
		{"internal interface", gophercloud.EndpointOpts{Availability: gophercloud.AvailabilityInternal}, "http://neutron-internal:9696/", "RegionOne"},
		{"service name", gophercloud.EndpointOpts{Name: "neutron", Region: "RegionOne"}, "http://neutron-one:9696/", "RegionOne"},
		{"unknown region", gophercloud.EndpointOpts{Region: "RegionThree"}, "", ""},
		{"other service name", gophercloud.EndpointOpts{Name: "other"}, "", ""},
		{"admin interface missing", gophercloud.EndpointOpts{Availability: gophercloud.AvailabilityAdmin}, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, region, err := networkEndpoint(catalog, tc.eo)
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("got %q, want an error", got)
			case tc.want == "" && !strings.Contains(err.Error(), "the catalog has no"):
				t.Errorf("error %q does not say what is missing", err)
			case tc.want != "" && (err != nil || got != tc.want || region != tc.wantRegion):
				t.Errorf("got %q in region %q, %v; want %q in %q", got, region, err, tc.want, tc.wantRegion)
			}
		})
	}
}
