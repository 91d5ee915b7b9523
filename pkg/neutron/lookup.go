package neutron

import (
	"context"
	"fmt"
)

// The two ways to find what a cluster's controller made in Neutron. Both filter on fields
// the create request itself set (see ownership.go), so they also find a resource whose
// create was interrupted before it could be tagged.

// OwnedNetworks lists the owner's networks by their exact name and the cluster's
// description: one call, for when nothing else can tell whether the owner has a network.
func OwnedNetworks(ctx context.Context, d Driver, owner Owner) ([]Network, error) {
	nets, err := d.ListNetworks(ctx, Filter{Name: owner.ResourceName(), Description: ClusterDescription(owner.ClusterID)})
	if err != nil {
		return nil, fmt.Errorf("looking up the Neutron network of Network %s/%s: %w", owner.Namespace, owner.Name, err)
	}
	return nets, nil
}

// ClusterResources lists every network and every subnet of the cluster: two calls,
// whatever the number of Networks.
func ClusterResources(ctx context.Context, d Driver, clusterID string) ([]Network, []Subnet, error) {
	mark := Filter{Description: ClusterDescription(clusterID)}
	nets, err := d.ListNetworks(ctx, mark)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the Neutron networks of cluster %s: %w", clusterID, err)
	}
	subnets, err := d.ListSubnets(ctx, mark)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the Neutron subnets of cluster %s: %w", clusterID, err)
	}
	return nets, subnets, nil
}
