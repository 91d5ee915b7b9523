package neutronstore

import (
	"context"
	"fmt"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The two ways to find what a cluster's controller made in Neutron. Both filter on fields
// the create request itself set (see pkg/neutron's ownership.go), so they also find a
// resource whose create was interrupted before it could be tagged. With a projectID they
// keep to that project: what another project shares with the caller is never the
// cluster's to manage.

// OwnedNetworks lists the owner's networks in projectID ("" for all the caller sees) by
// their exact name and the cluster's description: one call, for when nothing else can tell
// whether the owner has a network.
func OwnedNetworks(ctx context.Context, d neutron.Driver, owner neutron.Owner, projectID string) ([]neutron.Network, error) {
	nets, err := d.ListNetworks(ctx, neutron.Filter{Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("looking up the Neutron network of Network %s/%s: %w", owner.Namespace, owner.Name, err)
	}
	return neutron.InProject(nets, projectID), nil
}

// ClusterResources lists every network and every subnet of the cluster in projectID (""
// for all the caller sees): two calls, whatever the number of Networks.
func ClusterResources(ctx context.Context, d neutron.Driver, clusterID, projectID string) ([]neutron.Network, []neutron.Subnet, error) {
	mark := neutron.Filter{Description: neutron.ClusterDescription(clusterID), ProjectID: projectID}
	nets, err := d.ListNetworks(ctx, mark)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the Neutron networks of cluster %s: %w", clusterID, err)
	}
	subnets, err := d.ListSubnets(ctx, mark)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the Neutron subnets of cluster %s: %w", clusterID, err)
	}
	return neutron.InProject(nets, projectID), neutron.InProject(subnets, projectID), nil
}
