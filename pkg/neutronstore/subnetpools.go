package neutronstore

import (
	"context"
	"fmt"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// subnetPool returns the one subnet pool the store's project can use (its own, or one
// shared with it) that ref names: by name, the project's own when it has one of that
// name. What the caller's token cannot see, Neutron does not
// list: a tenant cannot reach another project's pool by naming it.
func (s *Store) subnetPool(ctx context.Context, ref neutron.PoolRef) (neutron.SubnetPool, error) {
	pools, err := findByRef(ctx, s.driver.ListSubnetPools, refQuery{ref: neutron.Ref{ID: ref.ID, Name: ref.Name}}, s.projectID)
	if err != nil {
		return neutron.SubnetPool{}, fmt.Errorf("looking up subnet pool %s: %w", ref, err)
	}
	switch len(pools) {
	case 1:
		return pools[0], nil
	case 0:
		return neutron.SubnetPool{}, &neutron.Error{Op: "find subnet pool", Kind: neutron.KindRejected,
			Message: fmt.Sprintf("no subnet pool %s that this project can use", ref)}
	default:
		return neutron.SubnetPool{}, &neutron.Error{Op: "find subnet pool", Kind: neutron.KindRejected,
			Message: fmt.Sprintf("%d subnet pools that this project can use are named %s; name the pool by id", len(pools), ref)}
	}
}
