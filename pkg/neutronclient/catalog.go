package neutronclient

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"
)

// networkEndpoint finds Neutron's URL in a token's catalog, as gophercloud's locator
// does but without first asking the endpoint which API versions it serves: that is one
// more request per client, answered the same every time (Neutron has only v2.0), which a
// restart over P projects would pay P times. It returns the endpoint's URL and region.
func networkEndpoint(catalog *tokens.ServiceCatalog, eo gophercloud.EndpointOpts) (url, region string, err error) {
	eo.ApplyDefaults("network")
	for _, entry := range catalog.Entries {
		if !slices.Contains(eo.Types(), entry.Type) || (eo.Name != "" && entry.Name != eo.Name) {
			continue
		}
		for _, e := range entry.Endpoints {
			if gophercloud.Availability(e.Interface) != eo.Availability {
				continue
			}
			if eo.Region != "" && e.Region != eo.Region && e.RegionID != eo.Region {
				continue
			}
			return gophercloud.NormalizeURL(e.URL), cmp.Or(e.Region, e.RegionID), nil
		}
	}
	where := string(eo.Availability) + " network endpoint"
	if eo.Region != "" {
		where += " in region " + eo.Region
	}
	return "", "", fmt.Errorf("the catalog has no %s", where)
}
