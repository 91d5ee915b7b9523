package main

import (
	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// How a Network maps onto Neutron: its spec onto the desired network and subnet, and what
// Neutron holds onto its status. A new attribute is a line in each direction here.

// neutronOwner names the Network a Neutron resource belongs to.
func neutronOwner(network *samplecrdv1.Network, clusterID string) neutron.Owner {
	return neutron.Owner{ClusterID: clusterID, Namespace: network.Namespace, Name: network.Name, UID: string(network.UID)}
}

// recordedOf returns the Neutron resources the Network's status names.
func recordedOf(network *samplecrdv1.Network) neutron.Recorded {
	return neutron.Recorded{NetworkID: network.Status.NetworkID, SubnetID: network.Status.SubnetID}
}

// desiredOf returns what Neutron should hold for the Network. The error, written for the
// user, says why the spec cannot be realised: the CRD's validation rules normally stop such
// a spec at the door, so this guards against a CRD installed without them.
func desiredOf(network *samplecrdv1.Network) (neutron.Desired, error) {
	plan, err := subnetplan.Plan(network.Spec.CIDR, network.Spec.Gateway)
	if err != nil {
		return neutron.Desired{}, err
	}
	gateway := plan.Gateway.String()
	pools := make([]neutron.Pool, 0, len(plan.AllocationPools))
	for _, p := range plan.AllocationPools {
		pools = append(pools, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
	}
	var mtu *int
	if network.Spec.MTU != nil {
		m := int(*network.Spec.MTU)
		mtu = &m
	}
	return neutron.Desired{
		Network: neutron.NetworkAttrs{MTU: mtu},
		Subnet: neutron.DesiredSubnet{
			CIDR:        plan.CIDR.String(),
			IPVersion:   plan.IPVersion,
			SubnetAttrs: neutron.SubnetAttrs{GatewayIP: &gateway, AllocationPools: pools},
		},
	}, nil
}

// setRealized records in status the network and subnet that realise the spec.
func setRealized(status *samplecrdv1.NetworkStatus, net neutron.Network, subnet neutron.Subnet) {
	status.NetworkID = net.ID
	status.SubnetID = subnet.ID
	status.Gateway = subnet.GatewayIP
	status.MTU = int32(net.MTU)
}
