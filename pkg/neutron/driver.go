// Package neutron is the controller's only door to OpenStack Neutron: a small Driver
// interface the controller depends on, its gophercloud implementation, the ownership
// marks that tie a Neutron resource to a Network object, and the classification of
// Neutron's errors into "retry" and "give up".
package neutron

import (
	"context"
	"time"
)

// Driver is the part of the Neutron API the controller uses. Implementations must be
// safe for concurrent use. Delete methods treat "already gone" (404) as success.
type Driver interface {
	// Ping checks that Neutron answers at all.
	Ping(ctx context.Context) error

	ListNetworks(ctx context.Context, filter Filter) ([]Network, error)
	CreateNetwork(ctx context.Context, name, description string) (Network, error)
	SetNetworkTags(ctx context.Context, id string, tags []string) error
	// DeleteNetwork deletes the network together with its subnets, which Neutron does in
	// one request unless ports other than its own DHCP and router ports use them.
	DeleteNetwork(ctx context.Context, id string) error

	ListSubnets(ctx context.Context, filter Filter) ([]Subnet, error)
	CreateSubnet(ctx context.Context, req SubnetRequest) (Subnet, error)
	// UpdateSubnetGateway sends the gateway and the allocation pools in one request,
	// because Neutron rejects a gateway that lies inside the current pools.
	UpdateSubnetGateway(ctx context.Context, id, gateway string, pools []Pool) (Subnet, error)
	DeleteSubnet(ctx context.Context, id string) error
}

// Filter selects resources in a list call. Empty fields do not filter.
type Filter struct {
	// Tags: a resource must carry all of them.
	Tags []string
	// Description: exact match.
	Description string
	// Name: exact match.
	Name string
	// NetworkID: subnets of this network only (ignored for networks).
	NetworkID string
}

// Network is the part of a Neutron network the controller looks at.
type Network struct {
	ID          string
	Name        string
	Description string
	Tags        []string
	CreatedAt   time.Time
}

// GetID returns the network's ID.
func (n Network) GetID() string { return n.ID }

// Subnet is the part of a Neutron subnet the controller looks at.
type Subnet struct {
	ID              string
	NetworkID       string
	Name            string
	Description     string
	Tags            []string
	CIDR            string
	IPVersion       int
	GatewayIP       string
	AllocationPools []Pool
	CreatedAt       time.Time
}

// GetID returns the subnet's ID.
func (s Subnet) GetID() string { return s.ID }

// Pool is an inclusive range of addresses Neutron may hand out to ports.
type Pool struct {
	Start string
	End   string
}

// SubnetRequest is everything needed to create a subnet.
type SubnetRequest struct {
	NetworkID       string
	Name            string
	Description     string
	CIDR            string
	IPVersion       int
	GatewayIP       string
	AllocationPools []Pool
}
