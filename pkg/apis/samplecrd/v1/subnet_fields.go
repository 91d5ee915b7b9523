package v1

// The rules of SubnetFields below, and those of its fields, refuse an invalid subnet at
// admission, for the one-subnet form at the top of a NetworkSpec and for each item of
// spec.subnets alike. Keep them in step with pkg/subnetplan, which the controller runs on
// the same spec.
//
// Rules on cidr together with gateway. Each is guarded so that it only runs when
// both are valid (cidr parses, has no host bits and is not too small; gateway parses):
// a bad cidr or gateway gets only the message of its own field rule, not a cascade of
// these. They also stay quiet on an update that changes cidr: that update is refused
// as "cidr is immutable", and judging the gateway against a cidr that cannot be stored
// would only confuse; and they stay quiet without cidr (an import, or an item of
// spec.subnets with a subnetPool, whose range is unknown until Neutron allocates it).
// An update that adds cidr is judged like a create: it is how a subnet moves from
// spec.subnets back to the one-subnet form. optionalOldSelf makes them run on create
// too (oldSelf is then empty).
//
// The broadcast rule of gateway is IPv4 only (IPv6 has no broadcast address). The
// gateway, known to be inside cidr, is the broadcast address when all its host bits
// are ones, i.e. when (gateway as an integer + 1) is a multiple of the subnet size
// 2^(32 - prefix length), taken from the table in the rule (CEL has no shift or power).
// A canonical IPv4 address has exactly four decimal octets. This also covers
// 255.255.255.255 in 0.0.0.0/0. A /31 or /32 never gets there: the cidr size rule
// refuses it. (Building the next address as text and asking containsIP would read
// better, but string(int) has no size bound and the cost estimator then refuses the
// CRD; for the same reason != on IP values is written !(a == b): only == has a
// constant cost.)
//
// DNS servers and routes must be of the subnet's family (Neutron refuses others).
// Quiet on a cidr change and when cidr or the entry's own field does not parse, as
// above. Their messages use map(x, predicate, value) rather than filter: the cost
// estimator does not bound the size of a field of a filtered object, and refuses the
// CRD.
//
// Allocation pools. Each rule is guarded as above and skips a pool whose own addresses
// are invalid or, after the family rule, of the other family, so that every pool gets
// only the first message that applies to it. The IPv4 rules compare addresses as
// integers (see the broadcast rule of gateway); for IPv6, which CEL cannot order, they
// catch only what equal text shows (a pool starting or ending at the gateway or at
// another pool's end) and the controller checks the rest before any Neutron call.
// Without gateway the gateway is the first usable address, network + 1, which only a
// pool starting there can hold (starting lower, it holds the network address). For
// IPv6, network + 1 is written by appending 1 to a network address that ends in "::";
// others are left to the controller.
//
// Gateway mode and the IPv6 modes. The IPv6 mode rules follow Neutron's own
// (neutron.db.db_base_plugin_v2, _validate_ipv6_attributes).

// +kubebuilder:validation:XValidation:rule=`(!has(self.ipv6AddressMode) && !has(self.ipv6RAMode)) || !has(self.enableDHCP) || self.enableDHCP`,message=`enableDHCP must be true while ipv6AddressMode or ipv6RAMode is set: Neutron refuses IPv6 modes on a subnet without DHCP`,fieldPath=`.enableDHCP`

// SubnetFields describe one subnet of a Network: its range and the options Neutron keeps
// for it.
type SubnetFields struct {
	// MaxLength is the longest IPv6 CIDR text: 39 characters of address + "/128".
	// Canonical form takes two rules, so that each failure says what to fix. (A message
	// naming the canonical form, string(cidr(self).masked()), would be nicer but its size
	// is unknown to the cost estimator, which then refuses the CRD; the controller's
	// message does name it.) Host bits and size take one rule per family, so that each
	// message speaks of the family of the cidr it refuses. A /31 (RFC 3021
	// point-to-point) or /32, and an IPv6 /127 or /128, have no address Neutron would
	// allocate beside the gateway (Neutron makes no allocation pool for them), so they
	// are refused.
	// +kubebuilder:validation:MaxLength=43
	// +kubebuilder:validation:XValidation:rule=`isCIDR(self)`,message=`cidr must be a valid IPv4 or IPv6 CIDR such as 192.168.0.0/16 or 2001:db8::/64`
	// +kubebuilder:validation:XValidation:rule=`!isCIDR(self) || cidr(self).ip().family() != 4 || cidr(self) == cidr(self).masked()`,message=`cidr must have all host bits zero, that is start with the network address (e.g. 10.0.0.0/24, not 10.0.0.1/24)`
	// +kubebuilder:validation:XValidation:rule=`!isCIDR(self) || cidr(self).ip().family() != 6 || cidr(self) == cidr(self).masked()`,message=`cidr must have all host bits zero, that is start with the network address (e.g. 2001:db8::/64, not 2001:db8::1/64)`
	// +kubebuilder:validation:XValidation:rule=`!isCIDR(self) || cidr(self).ip().family() != 4 || cidr(self).prefixLength() <= 30`,message=`cidr is too small: an IPv4 subnet needs a prefix length of /30 or shorter (a /31 or /32 has no room for a gateway and another address)`
	// +kubebuilder:validation:XValidation:rule=`!isCIDR(self) || cidr(self).ip().family() != 6 || cidr(self).prefixLength() <= 126`,message=`cidr is too small: an IPv6 subnet needs a prefix length of /126 or shorter (a /127 or /128 has no room for a gateway and another address)`
	// +kubebuilder:validation:XValidation:rule=`self == oldSelf`,message=`cidr is immutable`

	// CIDR of the subnet, IPv4 (e.g. 192.168.0.0/16) or IPv6 (e.g. 2001:db8:1::/64), in
	// canonical form: host bits zero and, for IPv6, lower case with the shortest
	// notation. The prefix must leave room for a gateway and at least one more address:
	// /30 or shorter for IPv4, /126 or shorter for IPv6. Immutable: Neutron cannot change
	// the range of an existing subnet. At the top of the spec it is required unless
	// subnets or import is set; with import it chooses which subnet of the imported
	// network the Network reports, and may be omitted when that network has exactly one.
	// An item of subnets has either cidr or subnetPool.
	// +optional
	CIDR string `json:"cidr,omitempty"`

	// MaxLength is the longest IPv6 address text (8 groups of 4 hex digits and 7
	// colons). isIP also refuses "" (with its one message): omit the field instead. The
	// canonical form makes it compare equal, as a string, to the gateway Neutron reports
	// (status.gateway).
	// +kubebuilder:validation:MaxLength=39
	// +kubebuilder:validation:XValidation:rule=`isIP(self)`,message=`gateway must be a valid IPv4 or IPv6 address such as 192.168.0.1 or 2001:db8::1; omit it for the first usable address`
	// +kubebuilder:validation:XValidation:rule=`!isIP(self) || ip.isCanonical(self)`,message=`gateway must be written in canonical form: IPv6 in lower case, without leading zeros, with :: for the longest run of zero groups (e.g. 2001:db8::1, not 2001:DB8:0::1)`

	// Gateway of the subnet: an IP address of the same family as cidr, inside cidr, that
	// is neither its network address (for IPv6 the subnet-router anycast address) nor,
	// for IPv4, its broadcast address; in canonical form. Omit it for the first usable
	// address (network address + 1). Every other usable address goes into the subnet's
	// allocation pools.
	// +optional
	Gateway string `json:"gateway,omitempty"`
	// GatewayMode is Automatic (the default: gateway, or the first usable address when
	// gateway is omitted) or None (a subnet without gateway; gateway must then be
	// omitted). It can be changed in place.
	// +optional
	GatewayMode GatewayMode `json:"gatewayMode,omitempty"`

	// Text equality is address equality in the uniqueness rule: the addresses are
	// canonical.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:XValidation:rule=`self.all(a, self.exists_one(b, b == a))`,message=`allocationPools must list each range once`,messageExpression=`'allocationPools lists ' + self.map(a, !self.exists_one(b, b == a), a.start + '-' + a.end)[0] + ' more than once'`

	// AllocationPools are the ranges Neutron hands out addresses from, e.g. to keep a
	// range for static addresses: at most 16 ranges of IP addresses of the same family as
	// cidr, in canonical form, each inside cidr with start <= end, not overlapping,
	// holding neither the gateway (given or default) nor the network address nor, for
	// IPv4, the broadcast address. Omit it for every usable address but the gateway.
	// They can be changed in place. (The order of IPv6 addresses is checked by the
	// controller, which then reports Ready=False, InvalidSpec.)
	// +optional
	// +listType=atomic
	AllocationPools []AllocationPool `json:"allocationPools,omitempty"`

	// MaxItems is Neutron's default max_dns_nameservers. Text equality is address
	// equality in the uniqueness rule: the entries are canonical.
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:XValidation:rule=`self.all(a, self.exists_one(b, b == a))`,message=`dnsNameservers must list each address once`,messageExpression=`'dnsNameservers lists ' + self.filter(a, !self.exists_one(b, b == a))[0] + ' more than once: list each address once'`
	// +kubebuilder:validation:items:MaxLength=39
	// +kubebuilder:validation:items:XValidation:rule=`isIP(self)`,message=`dnsNameservers entries must be valid IPv4 or IPv6 addresses such as 192.0.2.53 or 2001:db8::53`,messageExpression=`'dnsNameservers entry "' + self + '" is not a valid IPv4 or IPv6 address such as 192.0.2.53 or 2001:db8::53'`

	// DNSNameservers are the DNS servers the subnet's DHCP hands out, in the order
	// resolvers try them: at most 5 IP addresses of the same family as cidr, in canonical
	// form, each listed once. Omit it for none: DNS servers set on the Neutron subnet by
	// other means are removed. It can be changed in place.
	// +optional
	// +listType=atomic
	DNSNameservers []string `json:"dnsNameservers,omitempty"`

	// MaxItems is Neutron's default max_subnet_host_routes.
	// +kubebuilder:validation:MaxItems=20

	// HostRoutes are the routes the subnet's DHCP hands out besides the default route
	// through the gateway: at most 20, one per destination, each with a destination CIDR
	// and a nextHop address of the same IP family as cidr, in canonical form. Omit it for
	// none: routes set on the Neutron subnet by other means are removed. It can be
	// changed in place.
	// +optional
	// +listType=map
	// +listMapKey=destination
	HostRoutes []HostRoute `json:"hostRoutes,omitempty"`
	// EnableDHCP says whether Neutron runs DHCP on the subnet, which hands out its
	// addresses, DNS servers and host routes. Omit it for true. It can be changed in
	// place.
	// +optional
	EnableDHCP *bool `json:"enableDHCP,omitempty"`
	// IPv6AddressMode says how hosts on an IPv6 subnet get their addresses: slaac,
	// dhcpv6-stateful or dhcpv6-stateless. IPv6 only; equal to ipv6RAMode when both are
	// set; slaac and dhcpv6-stateless need a /64 cidr; needs enableDHCP true, which then
	// cannot be turned off. Immutable, and cannot be added or removed later: Neutron
	// cannot change it. Omit it for none.
	// +optional
	// +kubebuilder:validation:XValidation:rule=`self == oldSelf`,message=`ipv6AddressMode is immutable`
	IPv6AddressMode IPv6Mode `json:"ipv6AddressMode,omitempty"`
	// IPv6RAMode says what the router advertisements of Neutron's router tell hosts:
	// slaac, dhcpv6-stateful or dhcpv6-stateless, with the same rules as
	// ipv6AddressMode. Immutable, and cannot be added or removed later. Omit it for none.
	// +optional
	// +kubebuilder:validation:XValidation:rule=`self == oldSelf`,message=`ipv6RAMode is immutable`
	IPv6RAMode IPv6Mode `json:"ipv6RAMode,omitempty"`
}
