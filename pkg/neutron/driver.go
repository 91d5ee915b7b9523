// Package neutron is the controller's model of Neutron: the resources and their
// attributes, the comparison of desired with observed resources (Diff), the ownership
// marks that tie a Neutron resource to a Network object, the resolution of imports over
// what is visible, and the small Driver interface through which pkg/neutronstore's Store
// reaches Neutron (pkg/neutronclient implements it over gophercloud), with the kinds of
// error that decide between "retry" and "give up". Nothing here calls Neutron.
package neutron

import "context"

// Driver is the part of the Neutron API the controller uses. Implementations must be
// safe for concurrent use. Delete methods treat "already gone" (404) as success.
type Driver interface {
	// Ping checks that Neutron answers at all.
	Ping(ctx context.Context) error

	ListNetworks(ctx context.Context, filter Filter) ([]Network, error)
	CreateNetwork(ctx context.Context, req NetworkRequest) (Network, error)
	// UpdateNetwork sets the attributes that change names, in one request.
	UpdateNetwork(ctx context.Context, id string, change NetworkAttrs) (Network, error)
	// RelabelNetwork sets the network's name and description.
	RelabelNetwork(ctx context.Context, id string, label Label) (Network, error)
	SetNetworkTags(ctx context.Context, id string, tags []string) error
	// DeleteNetwork deletes the network together with its subnets, which Neutron does in
	// one request unless ports other than its own DHCP and router ports use them.
	DeleteNetwork(ctx context.Context, id string) error

	ListSubnets(ctx context.Context, filter Filter) ([]Subnet, error)
	CreateSubnet(ctx context.Context, req SubnetRequest) (Subnet, error)
	// UpdateSubnet sets the attributes that change names, in one request: Neutron checks
	// a new gateway against the allocation pools sent with it.
	UpdateSubnet(ctx context.Context, id string, change SubnetAttrs) (Subnet, error)
	// RelabelSubnet sets the subnet's name and description.
	RelabelSubnet(ctx context.Context, id string, label Label) (Subnet, error)
	DeleteSubnet(ctx context.Context, id string) error

	// ListSubnetPools lists the subnet pools the caller can use, its own and those shared
	// with it, by IDs or Name (ProjectID is ignored: a shared pool is another project's).
	ListSubnetPools(ctx context.Context, filter Filter) ([]SubnetPool, error)
	// ListNamed lists the resources of collection c the caller can see, its own and
	// those shared with it, by IDs or Name: what an attribute's Reference names.
	ListNamed(ctx context.Context, c Collection, filter Filter) ([]Named, error)
	// DefaultQoSPolicy returns the ID of the project's default QoS policy (qos-default's
	// is_default), which Neutron gives a network made without one; "" when the project
	// has none, or Neutron has no qos-default. A member may read it of its own project.
	DefaultQoSPolicy(ctx context.Context, projectID string) (string, error)
	// ListPorts lists ports by ProjectID, NetworkIDs and SubnetID.
	ListPorts(ctx context.Context, filter Filter) ([]Port, error)
	// ProjectQuota returns the project's quota of each resource with its use, which a
	// member may read of its own project.
	ProjectQuota(ctx context.Context, projectID string) (map[string]QuotaUsage, error)

	// ListNetworkShares lists the RBAC policies that share a network with a project
	// (object type network, action access_as_shared) by ProjectID, the project that made
	// them, and NetworkIDs.
	ListNetworkShares(ctx context.Context, filter Filter) ([]RBACPolicy, error)
	ShareNetwork(ctx context.Context, req ShareRequest) (RBACPolicy, error)
	DeleteRBACPolicy(ctx context.Context, id string) error

	// ListRouters lists routers by IDs, Name, Description and ProjectID.
	ListRouters(ctx context.Context, filter Filter) ([]Router, error)
	CreateRouter(ctx context.Context, req RouterRequest) (Router, error)
	// SetRouterGateway sets the router's external gateway.
	SetRouterGateway(ctx context.Context, id string, gateway GatewayRequest) (Router, error)
	// RelabelRouter sets the router's name and description.
	RelabelRouter(ctx context.Context, id string, label Label) (Router, error)
	DeleteRouter(ctx context.Context, id string) error
	// AddRouterInterface attaches the subnet to the router.
	AddRouterInterface(ctx context.Context, routerID, subnetID string) (Interface, error)
	// RemoveRouterInterface detaches the subnet from the router; not attached counts as
	// done.
	RemoveRouterInterface(ctx context.Context, routerID, subnetID string) error
}

// Filter selects resources in a list call. Empty fields do not filter.
type Filter struct {
	// IDs: networks or routers with one of these IDs (ignored for subnets).
	IDs []string
	// Tags: a resource must carry all of them.
	Tags []string
	// NotTags: a network must not carry all of them (ignored for subnets).
	NotTags []string
	// Description: exact match.
	Description string
	// Name: exact match.
	Name string
	// NetworkIDs: subnets, ports or RBAC policies of one of these networks (ignored for
	// networks).
	NetworkIDs []string
	// SubnetID: ports with an address on this subnet (ports only).
	SubnetID string
	// DeviceOwner: ports of this device owner (ports only).
	DeviceOwner string
	// DeviceID: ports of this device, e.g. a router's interfaces (ports only).
	DeviceID string
	// External: external networks (router:external) only (networks only).
	External bool
	// ProjectID: resources of this project only. Without it Neutron also returns what
	// other projects share with the caller (RBAC), and, to an admin, everything.
	ProjectID string
}
