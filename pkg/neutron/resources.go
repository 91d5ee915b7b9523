package neutron

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// The Neutron networks and subnets as the controller reads and writes them. The JSON names
// are Neutron's: the gophercloud driver lists exactly the fields of Network and Subnet
// (fields=) and sends the attribute structs as they are, so an attribute added here (its
// comparison is in the resource's file of pkg/reconcile) needs no other code in this package.

// Network is the part of a Neutron network the controller looks at.
type Network struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Tags        []string  `json:"tags"`
	CreatedAt   time.Time `json:"created_at"`
	MTU         int       `json:"mtu"`
	// PortSecurityEnabled is nil on a Neutron without the port security extension.
	PortSecurityEnabled *bool `json:"port_security_enabled"`
	// QoSPolicyID is nil for none, and on a Neutron without the qos extension.
	QoSPolicyID *string `json:"qos_policy_id"`
	// DNSDomain is "" for none, and nil on a Neutron without the dns-integration extension.
	DNSDomain *string `json:"dns_domain"`
	// ProjectID is the project that owns the network; a Store keeps only its own.
	ProjectID string `json:"project_id"`
}

// NetworkAttrs are the attributes of a network that a Network's spec decides. In a desired
// state a nil field is not managed; in a change, not sent. Each names, in its spec tag,
// the field of the Network's spec that decides it: a refusal by Neutron's policy names it.
type NetworkAttrs struct {
	MTU                 *int  `json:"mtu,omitempty" spec:"spec.mtu"`
	PortSecurityEnabled *bool `json:"port_security_enabled,omitempty" spec:"spec.portSecurityEnabled"`
	// QoSPolicy names one of QoSPolicies.
	QoSPolicy *Reference `json:"qos_policy_id,omitempty" spec:"spec.qosPolicy"`
	// DNSDomain is sent as it is; "" clears it (Neutron refuses null).
	DNSDomain *string `json:"dns_domain,omitempty" spec:"spec.dnsDomain"`
}

// QoSPolicies are Neutron's QoS policies, which a network's attribute names.
var QoSPolicies = Collection{Path: "qos/policies", Key: "policies", Noun: "QoS policy"}

// SpecFields returns, by Neutron attribute name, the spec field that decides each of the
// attributes of the struct v (NetworkAttrs, SubnetAttrs), from the fields' spec tags.
func SpecFields(v any) map[string]string {
	fields := map[string]string{}
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if spec := f.Tag.Get("spec"); spec != "" && name != "" {
			fields[name] = spec
		}
	}
	return fields
}

// NetworkRequest creates a network.
type NetworkRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	NetworkAttrs
}

// Subnet is the part of a Neutron subnet the controller looks at.
type Subnet struct {
	ID          string   `json:"id"`
	NetworkID   string   `json:"network_id"`
	ProjectID   string   `json:"project_id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	CIDR        string   `json:"cidr"`
	IPVersion   int      `json:"ip_version"`
	// GatewayIP is "" for a subnet without gateway.
	GatewayIP       string      `json:"gateway_ip"`
	AllocationPools []Pool      `json:"allocation_pools"`
	DNSNameservers  []string    `json:"dns_nameservers"`
	HostRoutes      []HostRoute `json:"host_routes"`
	EnableDHCP      bool        `json:"enable_dhcp"`
	IPv6Modes
	// SubnetPoolID is the subnet pool the range was allocated from; "" for a given CIDR.
	SubnetPoolID string    `json:"subnetpool_id"`
	CreatedAt    time.Time `json:"created_at"`
}

// Summary describes the subnet in a few words, e.g. "10.0.0.0/24, gateway 10.0.0.1".
func (s Subnet) Summary() string {
	if s.GatewayIP == "" {
		return s.CIDR + ", no gateway"
	}
	return s.CIDR + ", gateway " + s.GatewayIP
}

// IPv6Modes are how hosts on an IPv6 subnet get addresses (ipv6_address_mode) and what
// router advertisements tell them (ipv6_ra_mode); "" is none. Neutron sets them when the
// subnet is created and cannot change them.
type IPv6Modes struct {
	AddressMode string `json:"ipv6_address_mode,omitempty"`
	RAMode      string `json:"ipv6_ra_mode,omitempty"`
}

func (m IPv6Modes) String() string {
	return "address mode " + OrNone(m.AddressMode) + ", RA mode " + OrNone(m.RAMode)
}

// GatewayIP is a gateway address to send: "" is a subnet without gateway, which Neutron
// takes as null.
type GatewayIP string

func (g GatewayIP) MarshalJSON() ([]byte, error) {
	if g == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(g))
}

// Pool is an inclusive range of addresses Neutron may hand out to ports.
type Pool struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// HostRoute is a route a subnet's DHCP hands out.
type HostRoute struct {
	Destination string `json:"destination"`
	NextHop     string `json:"nexthop"`
}

// SubnetAttrs are the attributes of a subnet that a Network's spec decides and Neutron
// can change in place. In a desired state a nil field is not managed; in a change, not sent.
// An empty list is not nil: it manages, or sends, "none".
type SubnetAttrs struct {
	GatewayIP       *GatewayIP  `json:"gateway_ip,omitempty"`
	AllocationPools []Pool      `json:"allocation_pools,omitzero"`
	DNSNameservers  []string    `json:"dns_nameservers,omitzero"`
	HostRoutes      []HostRoute `json:"host_routes,omitzero"`
	EnableDHCP      *bool       `json:"enable_dhcp,omitempty"`
}

// SubnetRequest creates a subnet, with a given CIDR or with a prefix of PrefixLength
// allocated from the subnet pool SubnetPoolID.
type SubnetRequest struct {
	NetworkID    string `json:"network_id"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	CIDR         string `json:"cidr,omitempty"`
	SubnetPoolID string `json:"subnetpool_id,omitempty"`
	PrefixLength int    `json:"prefixlen,omitempty"`
	IPVersion    int    `json:"ip_version"`
	IPv6Modes
	SubnetAttrs
}

// SubnetPool is the part of a Neutron subnet pool the controller looks at.
type SubnetPool struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	ProjectID string   `json:"project_id"`
	IPVersion int      `json:"ip_version"`
	Prefixes  []string `json:"prefixes"`
	Shared    bool     `json:"shared"`
}

// Port is the part of a Neutron port the controller looks at: who uses which addresses.
type Port struct {
	ID          string    `json:"id"`
	NetworkID   string    `json:"network_id"`
	DeviceOwner string    `json:"device_owner"`
	DeviceID    string    `json:"device_id"`
	FixedIPs    []FixedIP `json:"fixed_ips"`
}

// FixedIP is an address a port holds on a subnet.
type FixedIP struct {
	SubnetID  string `json:"subnet_id"`
	IPAddress string `json:"ip_address"`
}

// maxNamedPorts bounds how many ports PortsText names.
const maxNamedPorts = 5

// PortsText names ports by ID, device owner and device, at most maxNamedPorts of them,
// for a message that tells their owner what holds a resource up.
func PortsText(ports []Port) string {
	parts := make([]string, 0, maxNamedPorts+1)
	for _, p := range ports[:min(len(ports), maxNamedPorts)] {
		parts = append(parts, fmt.Sprintf("%s (device owner %s, device %s)", p.ID, OrNone(p.DeviceOwner), OrNone(p.DeviceID)))
	}
	if extra := len(ports) - maxNamedPorts; extra > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", extra))
	}
	return strings.Join(parts, ", ")
}

// Label is the name and description of a network or subnet, as a request sets them.
type Label struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// GetID returns the network's ID.
func (n Network) GetID() string { return n.ID }

// GetID returns the subnet's ID.
func (s Subnet) GetID() string { return s.ID }

// Project returns the project that owns the network.
func (n Network) Project() string { return n.ProjectID }

// Project returns the project that owns the subnet.
func (s Subnet) Project() string { return s.ProjectID }

// Project returns the project that owns the pool.
func (p SubnetPool) Project() string { return p.ProjectID }
