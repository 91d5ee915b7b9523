package fake

import (
	"context"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Ports: the addresses that keep a subnet or a network in use.

// PutPort stores p as if someone had created it in Neutron directly: a VM's or router's
// port holding addresses, which keeps its subnets and network from being deleted.
func (d *Driver) PutPort(p neutron.Port) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ports[p.ID] = p
}

// DeletePort deletes the port id, as its owner would.
func (d *Driver) DeletePort(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.ports, id)
}

// Ports returns every stored port.
func (d *Driver) Ports() []neutron.Port {
	d.mu.Lock()
	defer d.mu.Unlock()
	return mapValues(d.ports)
}

// ListPorts lists ports by network, subnet, device and project; a port's project is taken to be
// its network's (neutron.Port carries none).
func (d *Driver) ListPorts(_ context.Context, f neutron.Filter) ([]neutron.Port, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list ports"); err != nil {
		return nil, err
	}
	var out []neutron.Port
	for _, p := range d.ports {
		if (len(f.NetworkIDs) == 0 || slices.Contains(f.NetworkIDs, p.NetworkID)) &&
			(f.SubnetID == "" || slices.ContainsFunc(p.FixedIPs, func(ip neutron.FixedIP) bool { return ip.SubnetID == f.SubnetID })) &&
			(f.ProjectID == "" || d.networks[p.NetworkID].ProjectID == f.ProjectID) && (f.DeviceOwner == "" || p.DeviceOwner == f.DeviceOwner) &&
			(f.DeviceID == "" || p.DeviceID == f.DeviceID) {
			out = append(out, p)
		}
	}
	return out, nil
}

// autoDeleted reports whether Neutron deletes the port by itself with its network or
// subnet (its AUTO_DELETE_PORT_OWNERS); router interfaces are not among them.
func autoDeleted(p neutron.Port) bool {
	switch p.DeviceOwner {
	case "network:dhcp", "network:distributed", "network:floatingip_agent_gateway":
		return true
	}
	return false
}
