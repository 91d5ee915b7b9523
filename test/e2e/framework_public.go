//go:build e2e

package e2e

import (
	"net/http"
	"net/url"
	"testing"
)

// The local cloud's external network, which hack/local-neutron.sh start makes as the
// admin: every project sees it and may put its routers' gateways on it. No other test uses
// its range.
const (
	// PublicNetworkName is a flat network on physical network "public", router:external,
	// not shared.
	PublicNetworkName = "public"
	// PublicSubnetName is its one subnet: 203.0.113.0/24, gateway 203.0.113.1, allocation
	// pool 203.0.113.10-203.0.113.250, no DHCP. A router's gateway takes an address
	// from the pool.
	PublicSubnetName = "public-subnet"
)

// LocalPublicNetwork is the local cloud's external network and its subnet, as Neutron's
// admin sees them.
type LocalPublicNetwork struct {
	ID        string
	Name      string
	ProjectID string
	Subnet    NeutronSubnet
}

// PublicNetwork returns the local cloud's external network with its one subnet, read
// through the admin (noauth) endpoint; the test fails when either is missing or not as
// hack/local-neutron.sh start makes it.
func PublicNetwork(t testing.TB) LocalPublicNetwork {
	t.Helper()
	var nets struct {
		Networks []struct {
			ID           string `json:"id"`
			Name         string `json:"name"`
			ProjectID    string `json:"project_id"`
			External     bool   `json:"router:external"`
			Shared       bool   `json:"shared"`
			NetworkType  string `json:"provider:network_type"`
			PhysicalName string `json:"provider:physical_network"`
		} `json:"networks"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/networks?name="+url.QueryEscape(PublicNetworkName), nil, &nets, http.StatusOK)
	if len(nets.Networks) != 1 || !nets.Networks[0].External || nets.Networks[0].Shared || nets.Networks[0].NetworkType != "flat" {
		t.Fatalf("want one external, unshared, flat network named %s (hack/local-neutron.sh start makes it), found %+v", PublicNetworkName, nets.Networks)
	}
	n := nets.Networks[0]
	var subs struct {
		Subnets []NeutronSubnet `json:"subnets"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/subnets?network_id="+url.QueryEscape(n.ID), nil, &subs, http.StatusOK)
	if len(subs.Subnets) != 1 || subs.Subnets[0].Name != PublicSubnetName || subs.Subnets[0].IPVersion != 4 {
		t.Fatalf("want one IPv4 subnet named %s on the external network %s (%s; hack/local-neutron.sh start makes it), found %+v", PublicSubnetName, n.Name, n.ID, subs.Subnets)
	}
	return LocalPublicNetwork{ID: n.ID, Name: n.Name, ProjectID: n.ProjectID, Subnet: subs.Subnets[0]}
}
