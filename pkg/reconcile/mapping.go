package reconcile

import (
	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// How a Network maps onto Neutron: its spec onto the desired network and subnet, and what
// Neutron holds onto its status. A new attribute is a line in each direction here.

// Owner names the Network a Neutron resource belongs to.
func Owner(network *samplecrdv1.Network, clusterID string) neutron.Owner {
	return neutron.Owner{ClusterID: clusterID, Namespace: network.Namespace, Name: network.Name, UID: string(network.UID)}
}

// Recorded returns the Neutron resources the Network's status names.
func Recorded(network *samplecrdv1.Network) neutron.Recorded {
	return neutron.Recorded{NetworkID: network.Status.NetworkID, SubnetID: network.Status.SubnetID}
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
	plan, err := subnetplan.Plan(subnetSpecOf(network.Spec))
	if err != nil {
		return neutron.Desired{}, err
	}
	var mtu *int
	if network.Spec.MTU != nil {
		m := int(*network.Spec.MTU)
		mtu = &m
	}
	return neutron.Desired{
		Network: neutron.DesiredNetwork{NetworkAttrs: neutron.NetworkAttrs{MTU: mtu},
			Retain: network.Spec.DeletionPolicy == samplecrdv1.DeletionPolicyRetain},
		Subnet: neutron.DesiredSubnet{CIDR: plan.CIDR.String(), IPVersion: plan.IPVersion,
			IPv6Modes:   neutron.IPv6Modes{AddressMode: plan.IPv6AddressMode, RAMode: plan.IPv6RAMode},
			SubnetAttrs: subnetAttrsOf(plan)},
	}, nil
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
func subnetSpecOf(spec samplecrdv1.NetworkSpec) subnetplan.Spec {
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

// setRealized records in status the network and subnet that realise the spec.
func setRealized(status *samplecrdv1.NetworkStatus, net neutron.Network, subnet neutron.Subnet) {
	status.NetworkID = net.ID
	status.SubnetID = subnet.ID
	status.Gateway = subnet.GatewayIP
	status.MTU = int32(net.MTU)
	dhcp := subnet.EnableDHCP
	status.EnableDHCP = &dhcp
}
