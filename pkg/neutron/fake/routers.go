package fake

import (
	"context"
	"fmt"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Routers, their gateways on external networks and their interfaces on subnets.

// PutExternalNetwork stores n as an external network (router:external), as a cloud's
// admin makes one.
func (d *Driver) PutExternalNetwork(n neutron.Network) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.networks[n.ID] = n
	d.externals[n.ID] = true
}

// PutRouter stores r as if someone had created or changed it in Neutron directly.
func (d *Driver) PutRouter(r neutron.Router) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.routers[r.ID] = r
}

// Routers returns every stored router.
func (d *Driver) Routers() []neutron.Router {
	d.mu.Lock()
	defer d.mu.Unlock()
	return mapValues(d.routers)
}

// DenySNAT makes a gateway request that sets enable_snat fail as Neutron's default policy
// has it for a member: 403.
func (d *Driver) DenySNAT(deny bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.denySNAT = deny
}

func (d *Driver) ListRouters(_ context.Context, f neutron.Filter) ([]neutron.Router, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list routers"); err != nil {
		return nil, err
	}
	var out []neutron.Router
	for _, r := range d.routers {
		if matches(f, nil, r.Description, r.Name, r.ProjectID) && (len(f.IDs) == 0 || slices.Contains(f.IDs, r.ID)) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (d *Driver) CreateRouter(_ context.Context, req neutron.RouterRequest) (neutron.Router, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("create router"); err != nil {
		return neutron.Router{}, err
	}
	r := neutron.Router{ID: d.newID("router"), Name: req.Name, Description: req.Description, ProjectID: d.project, CreatedAt: d.now()}
	if req.Gateway != nil {
		gw, err := d.gateway("create router", *req.Gateway)
		if err != nil {
			return neutron.Router{}, err
		}
		r.Gateway = gw
	}
	d.routers[r.ID] = r
	if err := d.lostReply("create router"); err != nil {
		return neutron.Router{}, err
	}
	return r, nil
}

func (d *Driver) SetRouterGateway(_ context.Context, id string, req neutron.GatewayRequest) (neutron.Router, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("set router gateway"); err != nil {
		return neutron.Router{}, err
	}
	r, ok := d.routers[id]
	if !ok {
		return neutron.Router{}, notFound("set router gateway")
	}
	gw, err := d.gateway("set router gateway", req)
	if err != nil {
		return neutron.Router{}, err
	}
	r.Gateway = gw
	d.routers[id] = r
	return r, nil
}

func (d *Driver) RelabelRouter(_ context.Context, id string, label neutron.Label) (neutron.Router, error) {
	return update(d, "relabel router", d.routers, id, label)
}

func (d *Driver) DeleteRouter(_ context.Context, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("delete router"); err != nil {
		return err
	}
	if _, ok := d.routers[id]; !ok {
		return nil
	}
	for _, p := range d.ports {
		if p.DeviceID == id && p.DeviceOwner == neutron.InterfaceOwner {
			return &neutron.Error{Op: "delete router", Kind: neutron.KindInUse, Code: 409, Type: "RouterInUse",
				Message: "Router " + id + " still has ports"}
		}
	}
	delete(d.routers, id)
	return nil
}

func (d *Driver) AddRouterInterface(_ context.Context, routerID, subnetID string) (neutron.Interface, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("add router interface"); err != nil {
		return neutron.Interface{}, err
	}
	s, ok := d.subnets[subnetID]
	if _, found := d.routers[routerID]; !found || !ok {
		return neutron.Interface{}, notFound("add router interface")
	}
	for _, p := range d.ports {
		if p.DeviceID == routerID && slices.ContainsFunc(p.FixedIPs, func(ip neutron.FixedIP) bool { return ip.SubnetID == subnetID }) {
			return neutron.Interface{}, &neutron.Error{Op: "add router interface", Kind: neutron.KindRejected, Code: 400, Type: "BadRequest",
				Message: "Router already has a port on subnet " + subnetID}
		}
	}
	port := neutron.Port{ID: d.newID("port"), NetworkID: s.NetworkID, DeviceOwner: neutron.InterfaceOwner, DeviceID: routerID,
		FixedIPs: []neutron.FixedIP{{SubnetID: subnetID, IPAddress: s.GatewayIP}}}
	d.ports[port.ID] = port
	i := neutron.Interface{RouterID: routerID, SubnetID: subnetID, PortID: port.ID}
	if err := d.lostReply("add router interface"); err != nil {
		return neutron.Interface{}, err
	}
	return i, nil
}

func (d *Driver) RemoveRouterInterface(_ context.Context, routerID, subnetID string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("remove router interface"); err != nil {
		return err
	}
	for id, p := range d.ports {
		if p.DeviceID == routerID && slices.ContainsFunc(p.FixedIPs, func(ip neutron.FixedIP) bool { return ip.SubnetID == subnetID }) {
			delete(d.ports, id)
		}
	}
	return nil
}

// gateway returns the gateway req asks for, with an address on the external network.
// Callers hold d.mu.
func (d *Driver) gateway(op string, req neutron.GatewayRequest) (*neutron.GatewayInfo, error) {
	if !d.externals[req.NetworkID] {
		return nil, &neutron.Error{Op: op, Kind: neutron.KindNotFound, Code: 404, Type: "ExternalNetworkNotFound",
			Message: fmt.Sprintf("External network %s could not be found.", req.NetworkID)}
	}
	if req.EnableSNAT != nil && d.denySNAT {
		return nil, &neutron.Error{Op: op, Kind: neutron.KindRejected, Code: 403, Type: "PolicyNotAuthorized",
			Message: "(rule:create_router and (rule:create_router:external_gateway_info and (rule:create_router:external_gateway_info:network_id and " +
				"rule:create_router:external_gateway_info:enable_snat))) is disallowed by policy"}
	}
	d.nextID++
	return &neutron.GatewayInfo{NetworkID: req.NetworkID, EnableSNAT: req.EnableSNAT,
		FixedIPs: []neutron.FixedIP{{IPAddress: fmt.Sprintf("203.0.113.%d", 10+d.nextID%240)}}}, nil
}
