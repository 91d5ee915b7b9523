package fake

import (
	"context"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func (d *Driver) ListSubnetPools(context.Context, neutron.Filter) ([]neutron.SubnetPool, error) {
	return nil, nil
}
func (d *Driver) ListPorts(context.Context, neutron.Filter) ([]neutron.Port, error) { return nil, nil }
