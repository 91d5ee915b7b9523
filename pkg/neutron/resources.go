package neutron

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The Neutron networks and subnets as the controller reads and writes them. The JSON names
// are Neutron's: the gophercloud driver lists exactly the fields of Network and Subnet
// (fields=) and sends the attribute structs as they are, so an attribute added here, with
// its comparison in diffNetwork or diffSubnet, needs no other code in this package.

// Network is the part of a Neutron network the controller looks at.
type Network struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Tags        []string  `json:"tags"`
	CreatedAt   time.Time `json:"created_at"`
	MTU         int       `json:"mtu"`
	// ProjectID is the project that owns the network; a Store keeps only its own.
	ProjectID string `json:"project_id"`
}

// NetworkAttrs are the attributes of a network that a Network's spec decides. In a desired
// state a nil field is not managed; in a change, not sent.
type NetworkAttrs struct {
	MTU *int `json:"mtu,omitempty"`
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
	CreatedAt time.Time `json:"created_at"`
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
	return "address mode " + orNone(m.AddressMode) + ", RA mode " + orNone(m.RAMode)
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

// SubnetRequest creates a subnet.
type SubnetRequest struct {
	NetworkID   string `json:"network_id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	CIDR        string `json:"cidr"`
	IPVersion   int    `json:"ip_version"`
	IPv6Modes
	SubnetAttrs
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

// Difference is one attribute whose observed value is not the desired one, in words.
type Difference struct {
	Attribute string
	Observed  string
	Desired   string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s from %s to %s", d.Attribute, d.Observed, d.Desired)
}

// Describe says in words what differs, e.g. "gateway from 10.0.0.1 to 10.0.0.9".
func Describe(diffs []Difference) string {
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

// diffNetwork returns the managed attributes of want that got does not have.
func diffNetwork(want NetworkAttrs, got Network) (NetworkAttrs, []Difference) {
	var change NetworkAttrs
	var diffs []Difference
	if want.MTU != nil && *want.MTU != got.MTU {
		change.MTU = want.MTU
		diffs = append(diffs, Difference{"mtu", strconv.Itoa(got.MTU), strconv.Itoa(*want.MTU)})
	}
	return change, diffs
}

// diffSubnet returns the managed attributes of want that got does not have.
func diffSubnet(want SubnetAttrs, got Subnet) (SubnetAttrs, []Difference) {
	var change SubnetAttrs
	var diffs []Difference
	if want.GatewayIP != nil && !sameAddr(string(*want.GatewayIP), got.GatewayIP) {
		change.GatewayIP = want.GatewayIP
		diffs = append(diffs, Difference{"gateway", orNone(got.GatewayIP), orNone(string(*want.GatewayIP))})
	}
	if want.AllocationPools != nil && !samePools(want.AllocationPools, got.AllocationPools) {
		change.AllocationPools = want.AllocationPools
		diffs = append(diffs, Difference{"allocation pools", poolsText(got.AllocationPools), poolsText(want.AllocationPools)})
	}
	if want.DNSNameservers != nil && !slices.EqualFunc(want.DNSNameservers, got.DNSNameservers, sameAddr) {
		change.DNSNameservers = want.DNSNameservers
		diffs = append(diffs, Difference{"dns nameservers", listText(got.DNSNameservers), listText(want.DNSNameservers)})
	}
	if want.HostRoutes != nil && !sameRoutes(want.HostRoutes, got.HostRoutes) {
		change.HostRoutes = want.HostRoutes
		diffs = append(diffs, Difference{"host routes", routesText(got.HostRoutes), routesText(want.HostRoutes)})
	}
	if want.EnableDHCP != nil && *want.EnableDHCP != got.EnableDHCP {
		change.EnableDHCP = want.EnableDHCP
		diffs = append(diffs, Difference{"dhcp", onOff(got.EnableDHCP), onOff(*want.EnableDHCP)})
	}
	return change, diffs
}

// sameAddr compares two addresses as addresses, so that the spelling of an IPv6 address
// does not count as a difference.
func sameAddr(a, b string) bool { return sameParsed(a, b, netip.ParseAddr) }

// samePrefix compares two CIDRs as prefixes, as sameAddr compares addresses.
func samePrefix(a, b string) bool { return sameParsed(a, b, netip.ParsePrefix) }

// sameParsed compares a and b as parse reads them, or as text when either does not parse.
func sameParsed[T comparable](a, b string, parse func(string) (T, error)) bool {
	x, errA := parse(a)
	y, errB := parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return x == y
}

// samePools compares allocation pools as sets of ranges: Neutron need not keep their order.
func samePools(a, b []Pool) bool {
	if len(a) != len(b) {
		return false
	}
	byStart := func(p, q Pool) int {
		x, _ := netip.ParseAddr(p.Start)
		y, _ := netip.ParseAddr(q.Start)
		return x.Compare(y)
	}
	a, b = slices.SortedFunc(slices.Values(a), byStart), slices.SortedFunc(slices.Values(b), byStart)
	for i := range a {
		if !sameAddr(a[i].Start, b[i].Start) || !sameAddr(a[i].End, b[i].End) {
			return false
		}
	}
	return true
}

// sameRoutes compares host routes as sets: Neutron does not keep their order.
func sameRoutes(a, b []HostRoute) bool {
	if len(a) != len(b) {
		return false
	}
	for _, r := range a {
		if !slices.ContainsFunc(b, func(o HostRoute) bool {
			return samePrefix(r.Destination, o.Destination) && sameAddr(r.NextHop, o.NextHop)
		}) {
			return false
		}
	}
	return true
}

func routesText(routes []HostRoute) string {
	parts := make([]string, len(routes))
	for i, r := range routes {
		parts[i] = r.Destination + " via " + r.NextHop
	}
	return listText(parts)
}

func listText(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ",")
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func poolsText(pools []Pool) string {
	parts := make([]string, len(pools))
	for i, p := range pools {
		parts[i] = p.Start + "-" + p.End
	}
	return listText(parts)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
