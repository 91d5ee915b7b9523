package fake

import (
	"context"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// SetQuota sets the project's limit of resource (e.g. "network") as ProjectQuota reads it.
// The fake does not refuse creates by it: FailWith an OverQuota error does.
func (d *Driver) SetQuota(resource string, limit int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.quota == nil {
		d.quota = map[string]int{}
	}
	d.quota[resource] = limit
}

// ProjectQuota returns the limits SetQuota set, with what the fake holds in use of
// networks, subnets and routers; every other resource is in use 0 times.
func (d *Driver) ProjectQuota(_ context.Context, projectID string) (map[string]neutron.QuotaUsage, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("read quota"); err != nil {
		return nil, err
	}
	used := map[string]int{}
	for _, n := range d.networks {
		if n.ProjectID == projectID || projectID == "" {
			used["network"]++
		}
	}
	used["subnet"] = len(d.subnets)
	used["router"] = len(d.routers)
	out := map[string]neutron.QuotaUsage{}
	for resource, limit := range d.quota {
		out[resource] = neutron.QuotaUsage{Limit: limit, Used: used[resource]}
	}
	return out, nil
}
