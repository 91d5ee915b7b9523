package neutronstore

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/crashpoint"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// fillRouters lists the project's routers, its router interfaces and the external networks
// (whose names spec.router.externalNetwork may give), three calls, when a network of nets
// carries RouterTag; else it costs nothing.
func (s *Store) fillRouters(ctx context.Context, since uint64, nets []neutron.Network) error {
	marked := markedNetworkIDs(nets, neutron.RouterTag)
	if len(marked) == 0 {
		s.routers.refill(since, nil, nil, nil)
		return nil
	}
	routers, err := s.driver.ListRouters(ctx, neutron.Filter{ProjectID: s.projectID})
	if err != nil {
		return fmt.Errorf("listing the project's routers: %w", err)
	}
	interfaces, err := s.driver.ListPorts(ctx, neutron.Filter{ProjectID: s.projectID, DeviceOwner: neutron.InterfaceOwner})
	if err != nil {
		return fmt.Errorf("listing the project's router interfaces: %w", err)
	}
	externals, err := s.driver.ListNetworks(ctx, neutron.Filter{External: true})
	if err != nil {
		return fmt.Errorf("listing the external networks: %w", err)
	}
	s.routers.refill(since, marked, neutron.InProject(routers, s.projectID), interfaces)
	s.routers.setExternals(externals, s.projectID)
	return nil
}

// Routers returns the owner's routers and the router interfaces on the owner's network n:
// from memory when it knows them, else listed (the routers by n's name, which the owner's
// router shares, and the network's interfaces: two calls) and remembered.
func (s *Store) Routers(ctx context.Context, n neutron.Network) (owned []neutron.Router, interfaces []neutron.Port, err error) {
	uid, _ := neutron.OwnerUID(n)
	if owned, interfaces, known := s.routers.view(s.clusterID, uid, n.ID); known {
		return owned, interfaces, nil
	}
	routers, err := s.driver.ListRouters(ctx, neutron.Filter{Name: n.Name, Description: neutron.ClusterDescription(s.clusterID), ProjectID: s.projectID})
	if err != nil {
		return nil, nil, fmt.Errorf("listing the routers of Neutron network %s: %w", n.ID, err)
	}
	ports, err := s.driver.ListPorts(ctx, neutron.Filter{NetworkIDs: []string{n.ID}, DeviceOwner: neutron.InterfaceOwner})
	if err != nil {
		return nil, nil, fmt.Errorf("listing the router interfaces on Neutron network %s: %w", n.ID, err)
	}
	for _, r := range neutron.InProject(routers, s.projectID) {
		s.routers.putRouter(r)
	}
	s.routers.views.set(n.ID, slices.DeleteFunc(ports, func(p neutron.Port) bool { return p.NetworkID != n.ID }))
	owned, interfaces, _ = s.routers.view(s.clusterID, uid, n.ID)
	return owned, interfaces, nil
}

// ExistingRouter returns the project's router that ref names: from memory when it has seen
// it, else looked up (one call). found is false when the project has none, or several of
// that name.
func (s *Store) ExistingRouter(ctx context.Context, ref neutron.Ref) (r neutron.Router, found bool, err error) {
	if r, ok := s.routers.router(ref); ok {
		return r, true, nil
	}
	routers, err := findByRef(ctx, s.driver.ListRouters, refQuery{ref: ref, scope: neutron.Filter{ProjectID: s.projectID}}, s.projectID)
	if err != nil {
		return neutron.Router{}, false, fmt.Errorf("looking up router %s: %w", ref, err)
	}
	if len(routers) != 1 {
		return neutron.Router{}, false, nil
	}
	s.routers.putRouter(routers[0])
	return routers[0], true, nil
}

// ExternalNetworkID returns the ID of the external network ref names: its ID as given, or
// looked up by name (one call, remembered until a router call finds it gone): the
// project's own when it has one of that name. found is false when no external network
// the project can see has the name, or several have.
func (s *Store) ExternalNetworkID(ctx context.Context, ref neutron.Ref) (id string, found bool, err error) {
	if ref.ID != "" {
		return ref.ID, true, nil
	}
	if id, ok := s.routers.external(ref.Name); ok {
		return id, true, nil
	}
	s.routers.lookups.Lock()
	defer s.routers.lookups.Unlock()
	if id, ok := s.routers.external(ref.Name); ok {
		return id, true, nil
	}
	// No project filter: an external network is mostly the cloud admin's.
	nets, err := findByRef(ctx, s.driver.ListNetworks, refQuery{ref: neutron.Ref{Name: ref.Name}, scope: neutron.Filter{External: true}}, s.projectID)
	if err != nil {
		return "", false, fmt.Errorf("looking up external network %s: %w", ref, err)
	}
	if len(nets) != 1 {
		return "", false, nil
	}
	s.routers.putExternal(ref.Name, nets[0].ID)
	return nets[0].ID, true, nil
}

// CreateRouter creates the owner's router for its network n, named and described like n,
// with its gateway. A create whose outcome is unknown makes the store read n's routers again.
func (s *Store) CreateRouter(ctx context.Context, n neutron.Network, gateway neutron.GatewayRequest) (neutron.Router, error) {
	created, err := s.driver.CreateRouter(ctx, neutron.RouterRequest{Name: n.Name, Description: neutron.ClusterDescription(s.clusterID), Gateway: &gateway})
	if err != nil {
		if outcomeUnknown(err) {
			s.routers.views.forget(n.ID)
		}
		if neutron.IsNotFound(err) {
			// The external network went: its name may lead to another one now.
			s.routers.forgetExternals()
		}
		return neutron.Router{}, err
	}
	s.routers.putRouter(created)
	crashpoint.Reached(crashpoint.RouterCreated)
	return created, nil
}

// SetGateway sets the gateway of the owner's router r.
func (s *Store) SetGateway(ctx context.Context, r neutron.Router, gateway neutron.GatewayRequest) (neutron.Router, error) {
	updated, err := s.driver.SetRouterGateway(ctx, r.ID, gateway)
	if err != nil {
		if neutron.IsNotFound(err) {
			s.routers.removeRouter(r.ID)
			s.routers.forgetExternals()
		}
		return neutron.Router{}, err
	}
	s.routers.putRouter(updated)
	return updated, nil
}

// DeleteRouter deletes r, which must be a router of this cluster. Already gone counts as
// done. A router still in use has interfaces on subnets of other networks, which no
// Network of the controller's makes (none attaches to a router made for another), so
// they are someone's by hand or an older version's: r is its owner's, and they go
// first, so that nothing holds its owner's delete up. The common delete costs no list.
func (s *Store) DeleteRouter(ctx context.Context, r neutron.Router) error {
	if _, ok := routerOwnerUID(r, s.clusterID); !ok {
		return fmt.Errorf("refusing to delete Neutron router %s: it does not carry this cluster's description", r.ID)
	}
	err := s.driver.DeleteRouter(ctx, r.ID)
	if routerInUse(err) {
		if err = s.detachAll(ctx, r.ID); err == nil {
			err = s.driver.DeleteRouter(ctx, r.ID)
		}
	}
	if err != nil && !neutron.IsNotFound(err) {
		return err
	}
	s.routers.removeRouter(r.ID)
	return nil
}

// detachAll removes every interface of the router routerID (one list, one call each).
func (s *Store) detachAll(ctx context.Context, routerID string) error {
	ports, err := s.driver.ListPorts(ctx, neutron.Filter{DeviceID: routerID, DeviceOwner: neutron.InterfaceOwner})
	if err != nil {
		return fmt.Errorf("listing the interfaces of router %s: %w", routerID, err)
	}
	for _, p := range ports {
		for _, subnetID := range neutron.AttachedSubnets([]neutron.Port{p}, routerID) {
			if err := s.Detach(ctx, p.NetworkID, neutron.Interface{RouterID: routerID, SubnetID: subnetID, PortID: p.ID}); err != nil {
				return fmt.Errorf("detaching subnet %s of network %s from router %s: %w", subnetID, p.NetworkID, routerID, err)
			}
			klog.FromContext(ctx).Info("Detached a subnet of another network from a router before deleting it",
				"routerID", routerID, "subnetID", subnetID, "networkID", p.NetworkID)
		}
	}
	return nil
}

// Attach attaches subnetID of networkID to routerID. An attach whose outcome is unknown
// makes the store read the network's interfaces again.
func (s *Store) Attach(ctx context.Context, networkID, routerID, subnetID string) (neutron.Interface, error) {
	i, err := s.driver.AddRouterInterface(ctx, routerID, subnetID)
	if alreadyAttached(err, subnetID) {
		// An attach sent before (by a process since killed, or one Neutron carried out
		// after its sender gave up) landed after the store read the network's interfaces.
		// Not a fault of the spec: the retry reads them again and finds it.
		s.routers.views.forget(networkID)
		return neutron.Interface{}, asConflict(err)
	}
	if err != nil {
		if outcomeUnknown(err) || neutron.KindOf(err) == neutron.KindConflict || neutron.IsNotFound(err) {
			// Read the network's routers again: the interface may be there, the router gone.
			s.routers.views.forget(networkID)
		}
		if neutron.IsNotFound(err) {
			s.routers.removeRouter(routerID)
		}
		return neutron.Interface{}, err
	}
	s.routers.attached(networkID, i)
	return i, nil
}

// Detach removes the interface i from networkID's subnet. Not attached counts as done.
func (s *Store) Detach(ctx context.Context, networkID string, i neutron.Interface) error {
	if err := s.driver.RemoveRouterInterface(ctx, i.RouterID, i.SubnetID); err != nil {
		return err
	}
	s.routers.detached(networkID, i)
	return nil
}

// detachRouters readies the owner's network n for its delete: it detaches n's subnets from
// the owner's routers and from recordedRouter (the existing router status names, if any),
// then deletes the owner's routers. It first lists n's ports (one call): while a port of
// someone else is on n, the network delete would fail, so nothing is detached or deleted
// and the error names those ports. A network without RouterTag and without a recorded
// router costs nothing here. It returns the routers deleted.
func (s *Store) detachRouters(ctx context.Context, n neutron.Network, recordedRouter string) ([]string, error) {
	if !neutron.RouterMarked(n) && recordedRouter == "" && len(neutron.MarkedRouterIDs(n)) == 0 {
		return nil, nil
	}
	ports, err := s.driver.ListPorts(ctx, neutron.Filter{NetworkIDs: []string{n.ID}})
	if err != nil {
		return nil, fmt.Errorf("listing the ports of Neutron network %s: %w", n.ID, err)
	}
	owned, err := s.ownedRouters(ctx, n)
	if err != nil {
		return nil, err
	}
	managed := append([]string{recordedRouter}, neutron.MarkedRouterIDs(n)...)
	for _, r := range owned {
		managed = append(managed, r.ID)
	}
	managed = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(managed))), func(id string) bool { return id == "" })
	if others := portsOfOthers(ports, managed); len(others) > 0 {
		return nil, &neutron.Error{Op: "delete network", Kind: neutron.KindInUse, Code: 409, Type: "NetworkInUse", Message: fmt.Sprintf(
			"Neutron network %s has ports of others on it, so nothing was detached or deleted yet. Ports using it: %s", n.ID, neutron.PortsText(others))}
	}
	for _, routerID := range managed {
		for _, subnetID := range neutron.AttachedSubnets(ports, routerID) {
			if err := s.Detach(ctx, n.ID, neutron.Interface{RouterID: routerID, SubnetID: subnetID}); err != nil {
				return nil, fmt.Errorf("detaching subnet %s from router %s: %w", subnetID, routerID, err)
			}
		}
	}
	crashpoint.Reached(crashpoint.InterfacesDetached)
	var deleted []string
	for _, r := range owned {
		if err := s.DeleteRouter(ctx, r); err != nil {
			return deleted, fmt.Errorf("deleting router %s: %w", r.ID, err)
		}
		deleted = append(deleted, r.ID)
	}
	return deleted, nil
}

// ownedRouters returns the owner's routers of its network n: from memory when the store
// read n's routers, else listed by n's name, which the owner's router shares (one call).
func (s *Store) ownedRouters(ctx context.Context, n neutron.Network) ([]neutron.Router, error) {
	uid, _ := neutron.OwnerUID(n)
	if owned, _, known := s.routers.view(s.clusterID, uid, n.ID); known {
		return owned, nil
	}
	routers, err := s.driver.ListRouters(ctx, neutron.Filter{Name: n.Name, Description: neutron.ClusterDescription(s.clusterID), ProjectID: s.projectID})
	if err != nil {
		return nil, fmt.Errorf("listing the routers of Neutron network %s: %w", n.ID, err)
	}
	return slices.DeleteFunc(neutron.InProject(routers, s.projectID), func(r neutron.Router) bool {
		owner, ok := routerOwnerUID(r, s.clusterID)
		return !ok || owner != uid
	}), nil
}

// portsOfOthers returns the ports that keep a network from being deleted once the
// interfaces of the managed routers are gone: all but those and the ports Neutron deletes
// with the network itself (DHCP and the like).
func portsOfOthers(ports []neutron.Port, managed []string) []neutron.Port {
	return slices.DeleteFunc(slices.Clone(ports), func(p neutron.Port) bool {
		switch p.DeviceOwner {
		case "network:dhcp", "network:distributed", "network:floatingip_agent_gateway":
			return true
		case neutron.InterfaceOwner:
			return slices.Contains(managed, p.DeviceID)
		}
		return false
	})
}

// CachedRouters returns, asking no one, what the store knows of the routers of the
// owner's network n and of those want names.
func (s *Store) CachedRouters(n neutron.Network, want *neutron.DesiredRouter) neutron.RouterView {
	var v neutron.RouterView
	uid, _ := neutron.OwnerUID(n)
	v.Owned, v.Interfaces, v.Known = s.routers.view(s.clusterID, uid, n.ID)
	if want == nil {
		return v
	}
	if want.Existing != nil {
		if r, ok := s.routers.router(*want.Existing); ok {
			v.Existing = &r
		}
	}
	if want.External != nil {
		v.ExternalNetworkID = want.External.ID
		if id, ok := s.routers.external(want.External.Name); ok && v.ExternalNetworkID == "" {
			v.ExternalNetworkID = id
		}
	}
	return v
}
