package reconcile

import (
	"fmt"
	"slices"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// How a Network maps onto Neutron: its spec onto the desired network and subnet, and what
// Neutron holds onto its status. A new attribute is a line in each direction here.

// Owner names the Network a Neutron resource belongs to.
func Owner(network *samplecrdv1.Network, clusterID string) neutron.Owner {
	return neutron.Owner{ClusterID: clusterID, Namespace: network.Namespace, Name: network.Name, UID: string(network.UID)}
}

// Recorded returns the Neutron resources the Network's status names.
func Recorded(network *samplecrdv1.Network) neutronstore.Recorded {
	rec := neutronstore.Recorded{NetworkID: network.Status.NetworkID, Subnets: map[string]string{}}
	if network.Status.SubnetID != "" {
		rec.Subnets[""] = network.Status.SubnetID
	}
	for _, s := range network.Status.Subnets {
		rec.Subnets[s.Name] = s.SubnetID
	}
	if network.Status.Router != nil {
		rec.RouterID = network.Status.Router.RouterID
	}
	return rec
}

// ImportRef returns the network, and the subnet of it, that a Network imports.
func ImportRef(network *samplecrdv1.Network) neutron.ImportRef {
	return neutron.ImportRef{
		NetworkID: network.Spec.Import.NetworkID, NetworkName: network.Spec.Import.NetworkName, CIDR: network.Spec.CIDR,
	}
}

// Desired returns what Neutron should hold for the Network. The error, written for the
// user, says why the spec cannot be realised: the CRD's validation rules normally stop such
// a spec at the door, so this guards against a CRD installed without them.
func Desired(network *samplecrdv1.Network) (neutron.Desired, error) {
	subnets, err := desiredSubnets(network.Spec)
	if err != nil {
		return neutron.Desired{}, err
	}
	var mtu *int
	if network.Spec.MTU != nil {
		m := int(*network.Spec.MTU)
		mtu = &m
	}
	router, err := desiredRouter(network.Spec)
	if err != nil {
		return neutron.Desired{}, err
	}
	sharedWith, err := desiredSharing(network.Spec)
	if err != nil {
		return neutron.Desired{}, err
	}
	return neutron.Desired{
		Network: neutron.DesiredNetwork{NetworkAttrs: neutron.NetworkAttrs{MTU: mtu, PortSecurityEnabled: network.Spec.PortSecurityEnabled},
			Retain: network.Spec.DeletionPolicy == samplecrdv1.DeletionPolicyRetain, SharedWith: sharedWith},
		Subnets: subnets,
		Router:  router,
	}, nil
}

// desiredSubnet returns the subnet of fields, whose range is its cidr.
func desiredSubnet(item string, fields samplecrdv1.SubnetFields) (neutron.DesiredSubnet, error) {
	plan, err := subnetplan.Plan(subnetSpecOf(fields))
	if err != nil {
		return neutron.DesiredSubnet{}, err
	}
	return neutron.DesiredSubnet{Item: item, CIDR: plan.CIDR.String(), IPVersion: plan.IPVersion,
		IPv6Modes:   neutron.IPv6Modes{AddressMode: plan.IPv6AddressMode, RAMode: plan.IPv6RAMode},
		SubnetAttrs: subnetAttrsOf(plan)}, nil
}

// subnetAttrsOf returns the planned subnet's attributes as Neutron takes them. The lists
// are empty, not nil, when the spec has none: omitted is enforced as Neutron's default.
func subnetAttrsOf(plan subnetplan.Subnet) neutron.SubnetAttrs {
	var gateway neutron.GatewayIP // none
	if plan.Gateway.IsValid() {
		gateway = neutron.GatewayIP(plan.Gateway.String())
	}
	pools := make([]neutron.Pool, 0, len(plan.AllocationPools))
	for _, p := range plan.AllocationPools {
		pools = append(pools, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
	}
	nameservers := make([]string, 0, len(plan.DNSNameservers))
	for _, a := range plan.DNSNameservers {
		nameservers = append(nameservers, a.String())
	}
	routes := make([]neutron.HostRoute, 0, len(plan.HostRoutes))
	for _, r := range plan.HostRoutes {
		routes = append(routes, neutron.HostRoute{Destination: r.Destination.String(), NextHop: r.NextHop.String()})
	}
	dhcp := plan.EnableDHCP
	return neutron.SubnetAttrs{GatewayIP: &gateway, AllocationPools: pools, DNSNameservers: nameservers, HostRoutes: routes, EnableDHCP: &dhcp}
}

// subnetSpecOf returns the part of spec that decides the subnet.
func subnetSpecOf(spec samplecrdv1.SubnetFields) subnetplan.Spec {
	routes := make([]subnetplan.HostRoute, 0, len(spec.HostRoutes))
	for _, r := range spec.HostRoutes {
		routes = append(routes, subnetplan.HostRoute{Destination: r.Destination, NextHop: r.NextHop})
	}
	pools := make([]subnetplan.PoolRange, 0, len(spec.AllocationPools))
	for _, p := range spec.AllocationPools {
		pools = append(pools, subnetplan.PoolRange{Start: p.Start, End: p.End})
	}
	return subnetplan.Spec{
		CIDR: spec.CIDR, GatewayMode: string(spec.GatewayMode), Gateway: spec.Gateway, AllocationPools: pools,
		DNSNameservers: spec.DNSNameservers, HostRoutes: routes,
		EnableDHCP:      spec.EnableDHCP == nil || *spec.EnableDHCP, // the CRD's default
		IPv6AddressMode: string(spec.IPv6AddressMode), IPv6RAMode: string(spec.IPv6RAMode),
	}
}

// setRealized records in status what realises the spec: the network, the projects it is
// shared with and the router its subnets are attached to; the one-subnet form's subnet in subnetID, gateway and enableDHCP, the
// list form's in subnets, with their addresses as last counted (or as status had them,
// for a subnet not counted yet).
func setRealized(status *samplecrdv1.NetworkStatus, out outcome) {
	net, subnets, previous := out.net, out.subnets, status.Subnets
	status.NetworkID = net.ID
	status.MTU = int32(net.MTU)
	status.PortSecurityEnabled = net.PortSecurityEnabled
	status.SharedWith = nil
	for _, p := range out.shares {
		status.SharedWith = append(status.SharedWith, samplecrdv1.ProjectShare{ProjectID: p.TargetProject, RBACPolicyID: p.ID})
	}
	status.Router = nil
	if r := out.router; r != nil {
		status.Router = &samplecrdv1.RouterStatus{RouterID: r.router.ID, Owned: r.owned,
			ExternalGatewayAddresses: r.router.GatewayAddresses(), SubnetIDs: r.subnetIDs}
	}
	status.SubnetID, status.Gateway, status.EnableDHCP, status.Subnets = "", "", nil, nil
	cidrs := make([]string, 0, len(subnets))
	for _, s := range subnets {
		if s.item != "" && slices.ContainsFunc(status.Subnets, func(listed samplecrdv1.SubnetStatus) bool { return listed.Name == s.item }) {
			// The old subnet of an item added again with another range, which ports still
			// use: status lists the item's new one, the condition names the old.
			continue
		}
		cidrs = append(cidrs, s.subnet.CIDR)
		dhcp := s.subnet.EnableDHCP
		if s.item == "" {
			status.SubnetID, status.Gateway, status.EnableDHCP = s.subnet.ID, s.subnet.GatewayIP, &dhcp
			continue
		}
		item := samplecrdv1.SubnetStatus{Name: s.item, CIDR: s.subnet.CIDR, SubnetID: s.subnet.ID, Gateway: s.subnet.GatewayIP, EnableDHCP: &dhcp}
		if s.addresses != nil {
			item.Addresses = &samplecrdv1.SubnetAddresses{Total: s.addresses.Total, Used: s.addresses.Used, Free: s.addresses.Free()}
		} else if i := slices.IndexFunc(previous, func(p samplecrdv1.SubnetStatus) bool { return p.SubnetID == s.subnet.ID }); i >= 0 {
			item.Addresses = previous[i].Addresses
		}
		status.Subnets = append(status.Subnets, item)
	}
	status.CIDRs = strings.Join(cidrs, ",")
	status.AddressUse = fullestUse(status.Subnets)
}

// fullestUse describes the use of the fullest counted subnet, e.g. "ipv4 12% (30/253)".
func fullestUse(subnets []samplecrdv1.SubnetStatus) string {
	var fullest *samplecrdv1.SubnetStatus
	ratio := func(s *samplecrdv1.SubnetStatus) float64 {
		return float64(s.Addresses.Used) / float64(max(s.Addresses.Total, 1))
	}
	for i := range subnets {
		if s := &subnets[i]; s.Addresses != nil && (fullest == nil || ratio(s) > ratio(fullest)) {
			fullest = s
		}
	}
	if fullest == nil {
		return ""
	}
	return fmt.Sprintf("%s %d%% (%d/%d)", fullest.Name, int(100*ratio(fullest)), fullest.Addresses.Used, fullest.Addresses.Total)
}
