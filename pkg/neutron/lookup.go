package neutron

import (
	"context"
	"fmt"
	"slices"
)

// The two ways to find what a cluster's controller made in Neutron. Both filter on fields
// the create request itself set (see ownership.go), so they also find a resource whose
// create was interrupted before it could be tagged. With a projectID they keep to that
// project: what another project shares with the caller is never the cluster's to manage.

// OwnedNetworks lists the owner's networks in projectID ("" for all the caller sees) by
// their exact name and the cluster's description: one call, for when nothing else can tell
// whether the owner has a network.
func OwnedNetworks(ctx context.Context, d Driver, owner Owner, projectID string) ([]Network, error) {
	nets, err := d.ListNetworks(ctx, Filter{Name: owner.ResourceName(), Description: ClusterDescription(owner.ClusterID), ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("looking up the Neutron network of Network %s/%s: %w", owner.Namespace, owner.Name, err)
	}
	return inProject(nets, projectID), nil
}

// ClusterResources lists every network and every subnet of the cluster in projectID (""
// for all the caller sees): two calls, whatever the number of Networks.
func ClusterResources(ctx context.Context, d Driver, clusterID, projectID string) ([]Network, []Subnet, error) {
	mark := Filter{Description: ClusterDescription(clusterID), ProjectID: projectID}
	nets, err := d.ListNetworks(ctx, mark)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the Neutron networks of cluster %s: %w", clusterID, err)
	}
	subnets, err := d.ListSubnets(ctx, mark)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the Neutron subnets of cluster %s: %w", clusterID, err)
	}
	return inProject(nets, projectID), inProject(subnets, projectID), nil
}

// inProject drops what is not of projectID, in case a Neutron answered a list without
// applying its project filter; "" keeps everything.
func inProject[T interface{ Project() string }](items []T, projectID string) []T {
	if projectID == "" {
		return items
	}
	return slices.DeleteFunc(items, func(item T) bool { return item.Project() != projectID })
}

// ownFirst returns the items of projectID when any is of it, else all of them: a name the
// project gives one of its own resources never resolves to one another project shared
// in (or, for an admin's external network, made), however it is named there. "" (a
// Neutron without authentication) prefers nothing.
func ownFirst[T interface{ Project() string }](items []T, projectID string) []T {
	if projectID == "" {
		return items
	}
	if own := inProject(slices.Clone(items), projectID); len(own) > 0 {
		return own
	}
	return items
}
