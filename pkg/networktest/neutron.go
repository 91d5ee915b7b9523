package networktest

import (
	"slices"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// PutRealized stores the network and subnet that RealizedNetwork's status names, as
// Neutron holds them after the controller made them for that cidr and gateway (and the
// spec's defaults: no DNS servers, no routes, DHCP on).
func PutRealized(d *neutronfake.Driver, owner neutron.Owner, cidr, gateway string) {
	plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: cidr, Gateway: gateway})
	if err != nil {
		panic(err)
	}
	var pools []neutron.Pool
	for _, p := range plan.AllocationPools {
		pools = append(pools, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
	}
	netID := "net-of-" + owner.Name
	d.PutNetwork(neutron.Network{ID: netID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags()})
	d.PutSubnet(neutron.Subnet{ID: "subnet-of-" + owner.Name, NetworkID: netID, Name: owner.ResourceName(),
		Description: neutron.ClusterDescription(owner.ClusterID), CIDR: cidr, IPVersion: 4, GatewayIP: gateway, AllocationPools: pools, EnableDHCP: true})
}

// PutRealizedWith is PutRealized, with the default gateway, and the subnet changed by
// change (may be nil), as Neutron holds it after an earlier spec or a change by hand.
func PutRealizedWith(cidr string, change func(*neutron.Subnet)) func(*neutronfake.Driver, neutron.Owner) {
	return func(d *neutronfake.Driver, owner neutron.Owner) {
		plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: cidr})
		if err != nil {
			panic(err)
		}
		PutRealized(d, owner, cidr, plan.Gateway.String())
		if change != nil {
			s := d.Subnets()[0]
			change(&s)
			d.PutSubnet(s)
		}
	}
}

// PutShared is PutRealized of 10.40.0.0/24 with the sharing mark on the network, and the
// policies share puts.
func PutShared(share func(d *neutronfake.Driver, netID string)) func(*neutronfake.Driver, neutron.Owner) {
	return func(d *neutronfake.Driver, owner neutron.Owner) {
		PutRealizedWith("10.40.0.0/24", nil)(d, owner)
		nets := d.Networks()
		net := nets[slices.IndexFunc(nets, func(n neutron.Network) bool { return n.ID == "net-of-"+owner.Name })]
		net.Tags = append(net.Tags, neutron.SharingTag)
		d.PutNetwork(net)
		share(d, net.ID)
	}
}

// PutForeign stores a network the controller did not create, with a subnet per cidr
// (IDs <id>-0, <id>-1...).
func PutForeign(d *neutronfake.Driver, id, name string, cidrs ...string) {
	d.PutNetwork(neutron.Network{ID: id, Name: name, MTU: 1442, CreatedAt: AnHourAgo})
	for i, cidr := range cidrs {
		d.PutSubnet(neutron.Subnet{ID: id + "-" + string(rune('0'+i)), NetworkID: id, CIDR: cidr, IPVersion: 4,
			GatewayIP: strings.TrimSuffix(cidr, "0/24") + "1", EnableDHCP: true})
	}
}
