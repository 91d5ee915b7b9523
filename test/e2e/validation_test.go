//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The CRD's schema and CEL rules refuse invalid specs at the door, each with a message
// that says what is wrong; no controller is involved.
func TestValidationRejectsInvalidSpecs(t *testing.T) {
	ns := NewNamespace(t)

	cases := []struct {
		name    string
		spec    string // YAML flow mapping
		wantMsg []string
		// notMsg must not appear: a message naming the other family misleads.
		notMsg []string
	}{
		{"drift check period below a minute", `{cidr: "10.0.0.0/24", driftCheck: {period: 30s}}`,
			[]string{"spec.driftCheck.period", "driftCheck.period must be between 1m and 24h"}, nil},
		{"drift check period above a day", `{cidr: "10.0.0.0/24", driftCheck: {period: 25h}}`,
			[]string{"spec.driftCheck.period", "driftCheck.period must be between 1m and 24h"}, nil},
		{"drift check period not a duration", `{cidr: "10.0.0.0/24", driftCheck: {period: "1 minute"}}`,
			[]string{"spec.driftCheck.period"}, nil},
		{"drift check policy unknown", `{cidr: "10.0.0.0/24", driftCheck: {policy: Ignore}}`,
			[]string{"spec.driftCheck.policy", "Repair", "Report"}, nil},
		{"bad cidr text", `{cidr: "10.0.0/24"}`,
			[]string{"spec.cidr", "cidr must be a valid IPv4 or IPv6 CIDR"}, nil},
		{"not a cidr at all", `{cidr: "banana"}`,
			[]string{"spec.cidr", "cidr must be a valid IPv4 or IPv6 CIDR"}, nil},
		{"host bits set", `{cidr: "10.0.0.1/24"}`,
			[]string{"spec.cidr", "host bits zero", "10.0.0.0/24, not 10.0.0.1/24"}, []string{"2001:db8"}},
		{"non-canonical ipv6", `{cidr: "2001:DB8::/64"}`,
			[]string{"spec.cidr", "canonical form"}, nil},
		{"ipv6 host bits set", `{cidr: "2001:db8::1/64"}`,
			[]string{"spec.cidr", "host bits zero", "2001:db8::/64, not 2001:db8::1/64"}, []string{"10.0.0.0/24"}},
		{"too small ipv4 /31", `{cidr: "10.0.0.0/31"}`,
			[]string{"spec.cidr", "cidr is too small: an IPv4 subnet needs a prefix length of /30 or shorter"}, []string{"IPv6"}},
		{"too small ipv4 /32", `{cidr: "10.0.0.1/32"}`,
			[]string{"spec.cidr", "cidr is too small: an IPv4 subnet"}, []string{"IPv6"}},
		{"too small ipv6 /127", `{cidr: "2001:db8::/127"}`,
			[]string{"spec.cidr", "cidr is too small: an IPv6 subnet needs a prefix length of /126 or shorter"}, []string{"IPv4"}},
		{"too small ipv6 /128", `{cidr: "2001:db8::1/128"}`,
			[]string{"spec.cidr", "cidr is too small: an IPv6 subnet"}, []string{"IPv4"}},
		{"gateway outside cidr", `{cidr: "10.0.0.0/24", gateway: "10.0.1.1"}`,
			[]string{"spec.gateway", "gateway 10.0.1.1 must be inside cidr 10.0.0.0/24"}, nil},
		{"gateway is the network address", `{cidr: "10.0.0.0/24", gateway: "10.0.0.0"}`,
			[]string{"spec.gateway", "gateway 10.0.0.0 must not be the network address of cidr 10.0.0.0/24"}, []string{"anycast"}},
		{"ipv6 gateway is the subnet-router anycast address", `{cidr: "2001:db8::/64", gateway: "2001:db8::"}`,
			[]string{"spec.gateway", "gateway 2001:db8:: must not be the network (subnet-router anycast) address of cidr 2001:db8::/64"}, nil},
		{"gateway is the broadcast address", `{cidr: "10.0.0.0/24", gateway: "10.0.0.255"}`,
			[]string{"spec.gateway", "gateway 10.0.0.255 must not be the broadcast address of cidr 10.0.0.0/24"}, nil},
		{"ipv6 gateway for ipv4 cidr", `{cidr: "10.0.0.0/24", gateway: "2001:db8::1"}`,
			[]string{"spec.gateway", "gateway 2001:db8::1 must be of the same IP family as cidr 10.0.0.0/24"}, nil},
		{"ipv4 gateway for ipv6 cidr", `{cidr: "2001:db8::/64", gateway: "10.0.0.1"}`,
			[]string{"spec.gateway", "must be of the same IP family as cidr"}, nil},
		{"bad gateway text", `{cidr: "10.0.0.0/24", gateway: "10.0.0.300"}`,
			[]string{"spec.gateway", "gateway must be a valid IPv4 or IPv6 address"}, nil},
		{"missing cidr", `{gateway: "10.0.0.1"}`,
			[]string{"spec.cidr", "Required value", "cidr is required, unless import names an existing network"}, nil},
		{"sharing with every project", `{cidr: "10.0.0.0/24", sharedWith: ["8d3c2b1a0f9e4d7c6b5a49382716f0e1", "*"]}`,
			[]string{"spec.sharedWith[1]", `sharedWith cannot name "*" (every project): only a cloud admin may share a network with every project`},
			[]string{"is not an OpenStack project ID"}},
		{"sharing with a project ID that is not one", `{cidr: "10.0.0.0/24", sharedWith: ["team b/../x"]}`,
			[]string{"spec.sharedWith[0]", `sharedWith item "team b/../x" is not an OpenStack project ID`}, nil},
		{"sharing with a project twice", `{cidr: "10.0.0.0/24", sharedWith: ["8d3c2b1a0f9e4d7c6b5a49382716f0e1", "8d3c2b1a0f9e4d7c6b5a49382716f0e1"]}`,
			[]string{"spec.sharedWith[1]", "Duplicate value"}, nil},
		{"sharing with 17 projects", `{cidr: "10.0.0.0/24", sharedWith: ["00000000000000000000000000000001", "00000000000000000000000000000002", "00000000000000000000000000000003", "00000000000000000000000000000004", "00000000000000000000000000000005", "00000000000000000000000000000006", "00000000000000000000000000000007", "00000000000000000000000000000008", "00000000000000000000000000000009", "0000000000000000000000000000000a", "0000000000000000000000000000000b", "0000000000000000000000000000000c", "0000000000000000000000000000000d", "0000000000000000000000000000000e", "0000000000000000000000000000000f", "00000000000000000000000000000010", "00000000000000000000000000000011"]}`,
			[]string{"spec.sharedWith", "must have at most 16 items"}, nil},
		{"router with both kinds", `{cidr: "10.0.0.0/24", router: {externalNetwork: {name: public}, existing: {name: r1}}}`,
			[]string{"spec.router", "router must have exactly one of externalNetwork"}, nil},
		{"router with neither kind", `{cidr: "10.0.0.0/24", router: {}}`,
			[]string{"spec.router", "router must have exactly one of externalNetwork"}, nil},
		{"router naming by id and name", `{cidr: "10.0.0.0/24", router: {existing: {id: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f", name: r1}}}`,
			[]string{"spec.router.existing", "must name exactly one of id or name"}, nil},
		{"enableSNAT on an existing router", `{cidr: "10.0.0.0/24", router: {existing: {name: r1}, enableSNAT: true}}`,
			[]string{"spec.router.enableSNAT", "router enableSNAT can be set only with externalNetwork"}, nil},
		{"router subnets with the one-subnet form", `{cidr: "10.0.0.0/24", router: {existing: {name: r1}, subnets: [a]}}`,
			[]string{"spec.router.subnets", "router subnets can be set only with subnets (the list form)"}, nil},
		{"router subnets naming no item", `{subnets: [{name: a, cidr: "10.0.0.0/24"}], router: {existing: {name: r1}, subnets: [b]}}`,
			[]string{"spec.router.subnets", "router subnets names b, which is not an item of subnets"}, nil},
		{"a routed subnet without gateway", `{cidr: "10.0.0.0/24", gatewayMode: None, router: {externalNetwork: {name: public}}}`,
			[]string{"spec.gatewayMode", "gatewayMode None cannot be set together with router"}, nil},
		{"a routed item without gateway", `{subnets: [{name: a, cidr: "10.0.0.0/24", gatewayMode: None}], router: {externalNetwork: {name: public}}}`,
			[]string{"spec.subnets", "an item of subnets attached to the router cannot have gatewayMode None"}, nil},
		{"import with a router", `{import: {networkName: public}, router: {existing: {name: r1}}}`,
			[]string{"spec.router: Forbidden: router cannot be set together with import"}, nil},
		{"import with sharing or port security", `{import: {networkName: public}, sharedWith: ["8d3c2b1a0f9e4d7c6b5a49382716f0e1"], portSecurityEnabled: false}`,
			[]string{"spec.sharedWith: Forbidden: sharedWith cannot be set together with import",
				"spec.portSecurityEnabled: Forbidden: portSecurityEnabled cannot be set together with import"}, nil},
		{"import with fields only a created network takes", `{import: {networkName: public}, gateway: "10.0.0.1", mtu: 1400, deletionPolicy: Retain}`,
			[]string{"spec.gateway: Forbidden: gateway cannot be set together with import", "spec.mtu: Forbidden: mtu cannot be set",
				"spec.deletionPolicy: Forbidden: deletionPolicy cannot be set", "only cidr and cloudCredentialsRef may be set with import"},
			[]string{"no such key"}},
		{"import with the defaults spelled out", `{import: {networkName: public}, enableDHCP: true, gatewayMode: Automatic}`,
			[]string{"spec.enableDHCP: Forbidden", "spec.gatewayMode: Forbidden"}, nil},
		{"import naming both an ID and a name", `{import: {networkName: public, networkID: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"}}`,
			[]string{"spec.import", "import must name exactly one of networkID or networkName"}, nil},
		{"credentials naming a Secret and an identity", `{cidr: "10.0.0.0/24", cloudCredentialsRef: {secretName: os, cloudName: c, clusterIdentity: team-a}}`,
			[]string{"spec.cloudCredentialsRef", "must name exactly one of secretName (a Secret of the namespace) or clusterIdentity"}, nil},
		{"credentials naming an identity and a cloud", `{cidr: "10.0.0.0/24", cloudCredentialsRef: {clusterIdentity: team-a, cloudName: c}}`,
			[]string{"spec.cloudCredentialsRef.cloudName", "cloudName must be set exactly when secretName is"}, nil},
		{"credentials naming a Secret without a cloud", `{cidr: "10.0.0.0/24", cloudCredentialsRef: {secretName: os}}`,
			[]string{"spec.cloudCredentialsRef.cloudName", "cloudName must be set exactly when secretName is"}, nil},
		{"credentials naming an identity that is no name", `{cidr: "10.0.0.0/24", cloudCredentialsRef: {clusterIdentity: "Team_A"}}`,
			[]string{"spec.cloudCredentialsRef.clusterIdentity", "should match"}, nil},
		{"import naming nothing", `{import: {}}`,
			[]string{"spec.import", "import must name exactly one of networkID or networkName"}, nil},
		{"import by an ID that is not one", `{import: {networkID: "public"}}`,
			[]string{"spec.import.networkID", "must be the UUID of a Neutron network"}, nil},
		{"import with a cidr that is not one", `{import: {networkName: public}, cidr: "10.0.0.1/24"}`,
			[]string{"spec.cidr", "host bits zero"}, nil},
		{"dns server not an address", `{cidr: "10.0.0.0/24", dnsNameservers: ["10.0.0.2", "dns.example.com"]}`,
			[]string{"spec.dnsNameservers[1]", `dnsNameservers entry "dns.example.com" is not a valid IPv4 or IPv6 address`}, []string{"dnsNameservers[0]"}},
		{"dns server not canonical", `{cidr: "10.0.0.0/24", dnsNameservers: ["2001:DB8::53"]}`,
			[]string{"spec.dnsNameservers[0]", "dnsNameservers entry 2001:DB8::53 must be written in canonical form"}, nil},
		{"ipv6 dns server on an ipv4 subnet", `{cidr: "10.0.0.0/24", dnsNameservers: ["10.0.0.2", "2001:db8::53"]}`,
			[]string{"spec.dnsNameservers", "dnsNameservers entry 2001:db8::53 must be of the same IP family as cidr 10.0.0.0/24"}, []string{"10.0.0.2"}},
		{"dns server listed twice", `{cidr: "10.0.0.0/24", dnsNameservers: ["10.0.0.2", "10.0.0.3", "10.0.0.2"]}`,
			[]string{"spec.dnsNameservers", "dnsNameservers lists 10.0.0.2 more than once"}, []string{"10.0.0.3 more"}},
		{"six dns servers", `{cidr: "10.0.0.0/24", dnsNameservers: ["10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.7"]}`,
			[]string{"spec.dnsNameservers", "must have at most 5 items"}, nil},
		{"dns servers as one string", `{cidr: "10.0.0.0/24", dnsNameservers: "10.0.0.2"}`,
			[]string{"spec.dnsNameservers", "must be of type array"}, nil},
		{"route destination not a cidr", `{cidr: "10.0.0.0/24", hostRoutes: [{destination: "10.1.0.0", nextHop: "10.0.0.254"}]}`,
			[]string{"spec.hostRoutes[0].destination", `hostRoutes destination "10.1.0.0" is not a valid IPv4 or IPv6 CIDR`}, []string{"nextHop"}},
		{"route destination with host bits", `{cidr: "10.0.0.0/24", hostRoutes: [{destination: "10.1.2.3/16", nextHop: "10.0.0.254"}]}`,
			[]string{"spec.hostRoutes[0].destination", "hostRoutes destination 10.1.2.3/16 must have all host bits zero"}, []string{"same IP family"}},
		{"route next hop not an address", `{cidr: "10.0.0.0/24", hostRoutes: [{destination: "10.1.0.0/16", nextHop: "router"}]}`,
			[]string{"spec.hostRoutes[0].nextHop", `hostRoutes nextHop "router" is not a valid IPv4 or IPv6 address`}, []string{"destination"}},
		{"route without next hop", `{cidr: "10.0.0.0/24", hostRoutes: [{destination: "10.1.0.0/16"}]}`,
			[]string{"spec.hostRoutes[0].nextHop", "Required value"}, nil},
		{"ipv6 route on an ipv4 subnet", `{cidr: "10.0.0.0/24", hostRoutes: [{destination: "10.1.0.0/16", nextHop: "10.0.0.254"}, {destination: "2001:db8:1::/48", nextHop: "2001:db8::fe"}]}`,
			[]string{"spec.hostRoutes", "hostRoutes destination 2001:db8:1::/48 must be of the same IP family as cidr 10.0.0.0/24",
				"hostRoutes nextHop 2001:db8::fe (to 2001:db8:1::/48) must be of the same IP family as cidr 10.0.0.0/24"}, []string{"10.1.0.0/16"}},
		{"ipv4 next hop on an ipv6 subnet", `{cidr: "2001:db8::/64", hostRoutes: [{destination: "2001:db8:1::/48", nextHop: "10.0.0.254"}]}`,
			[]string{"spec.hostRoutes", "hostRoutes nextHop 10.0.0.254 (to 2001:db8:1::/48) must be of the same IP family as cidr 2001:db8::/64"},
			[]string{"hostRoutes destination"}},
		{"two routes to one destination", `{cidr: "10.0.0.0/24", hostRoutes: [{destination: "10.1.0.0/16", nextHop: "10.0.0.254"}, {destination: "10.1.0.0/16", nextHop: "10.0.0.253"}]}`,
			[]string{"spec.hostRoutes[1]", "Duplicate value", "10.1.0.0/16"}, nil},
		{"dhcp as text", `{cidr: "10.0.0.0/24", enableDHCP: "yes"}`,
			[]string{"spec.enableDHCP", "must be of type boolean"}, nil},
		{"pool start not an address", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.x", end: "10.0.0.9"}]}`,
			[]string{"spec.allocationPools[0].start", `allocationPools start "10.0.0.x" is not a valid IPv4 or IPv6 address`}, []string{"end"}},
		{"pool end not canonical", `{cidr: "2001:db8::/64", allocationPools: [{start: "2001:db8::10", end: "2001:DB8::20"}]}`,
			[]string{"spec.allocationPools[0].end", "allocationPools end 2001:DB8::20 must be written in canonical form"}, nil},
		{"pool reversed", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.10", end: "10.0.0.20"}, {start: "10.0.0.99", end: "10.0.0.90"}]}`,
			[]string{"spec.allocationPools[1]", "allocationPools pool 10.0.0.99-10.0.0.90 is reversed"}, []string{"10.0.0.10-10.0.0.20"}},
		{"ipv6 pool on an ipv4 subnet", `{cidr: "10.0.0.0/24", allocationPools: [{start: "2001:db8::10", end: "2001:db8::20"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 2001:db8::10-2001:db8::20 must be of the same IP family as cidr 10.0.0.0/24"}, nil},
		{"pool outside cidr", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.10", end: "10.0.1.20"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 10.0.0.10-10.0.1.20 must be inside cidr 10.0.0.0/24"}, nil},
		{"pool with the network address", `{cidr: "10.0.0.0/24", gatewayMode: None, allocationPools: [{start: "10.0.0.0", end: "10.0.0.20"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 10.0.0.0-10.0.0.20 must not contain the network address of cidr 10.0.0.0/24"}, []string{"gateway"}},
		{"pool with the broadcast address", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.200", end: "10.0.0.255"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 10.0.0.200-10.0.0.255 must not contain the broadcast address of cidr 10.0.0.0/24"}, nil},
		{"pool with the gateway", `{cidr: "10.0.0.0/24", gateway: "10.0.0.50", allocationPools: [{start: "10.0.0.10", end: "10.0.0.99"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 10.0.0.10-10.0.0.99 must not contain the gateway 10.0.0.50"}, nil},
		{"pool with the default gateway", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.1", end: "10.0.0.99"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 10.0.0.1-10.0.0.99 must not contain the gateway", "first usable address of 10.0.0.0/24"}, nil},
		{"ipv6 pool with the default gateway", `{cidr: "2001:db8::/64", allocationPools: [{start: "2001:db8::1", end: "2001:db8::99"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 2001:db8::1-2001:db8::99 must not contain the gateway"}, nil},
		{"overlapping pools", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.10", end: "10.0.0.30"}, {start: "10.0.0.20", end: "10.0.0.40"}]}`,
			[]string{"spec.allocationPools", "allocationPools pool 10.0.0.10-10.0.0.30 overlaps another pool"}, nil},
		{"same pool twice", `{cidr: "10.0.0.0/24", allocationPools: [{start: "10.0.0.10", end: "10.0.0.30"}, {start: "10.0.0.10", end: "10.0.0.30"}]}`,
			[]string{"spec.allocationPools", "allocationPools lists 10.0.0.10-10.0.0.30 more than once"}, nil},
		{"seventeen pools", `{cidr: "10.0.0.0/24", allocationPools: [` + strings.Repeat(`{start: "10.0.0.10", end: "10.0.0.10"}, `, 16) + `{start: "10.0.0.11", end: "10.0.0.11"}]}`,
			[]string{"spec.allocationPools", "must have at most 16 items"}, nil},
		{"gateway with gatewayMode None", `{cidr: "10.0.0.0/24", gatewayMode: None, gateway: "10.0.0.1"}`,
			[]string{"spec.gateway", "gateway 10.0.0.1 must be omitted when gatewayMode is None"}, nil},
		{"unknown gatewayMode", `{cidr: "10.0.0.0/24", gatewayMode: Static}`,
			[]string{"spec.gatewayMode", `Unsupported value: "Static"`, `"Automatic", "None"`}, nil},
		{"ipv6 mode on an ipv4 subnet", `{cidr: "10.0.0.0/24", ipv6AddressMode: slaac}`,
			[]string{"spec.ipv6AddressMode", "ipv6AddressMode slaac applies to IPv6 subnets only, but cidr 10.0.0.0/24 is IPv4"}, nil},
		{"unknown ipv6 mode", `{cidr: "2001:db8::/64", ipv6RAMode: dhcpv6}`,
			[]string{"spec.ipv6RAMode", `Unsupported value: "dhcpv6"`}, nil},
		{"ipv6 modes differ", `{cidr: "2001:db8::/64", ipv6AddressMode: slaac, ipv6RAMode: dhcpv6-stateful}`,
			[]string{"spec.ipv6RAMode", "ipv6RAMode dhcpv6-stateful must equal ipv6AddressMode slaac when both are set"}, nil},
		{"slaac on a /80", `{cidr: "2001:db8::/80", ipv6AddressMode: slaac}`,
			[]string{"spec.ipv6AddressMode", "ipv6AddressMode slaac needs a /64 cidr", "2001:db8::/80"}, nil},
		{"ipv6 mode without dhcp", `{cidr: "2001:db8::/64", ipv6AddressMode: dhcpv6-stateless, enableDHCP: false}`,
			[]string{"spec.enableDHCP", "enableDHCP must be true while ipv6AddressMode or ipv6RAMode is set"}, nil},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantRefused(t, ns, fmt.Sprintf("invalid-%d", i), tc.spec, tc.wantMsg, tc.notMsg)
		})
	}

	t.Run("cidr change on an existing object", func(t *testing.T) {
		t.Parallel()
		file := WriteFile(t, "immutable.yaml",
			"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: immutable\nspec:\n  cidr: 10.9.0.0/24\n")
		MustKubectl(t, "apply", "-n", ns, "-f", file)
		out, err := Kubectl(t, "patch", "network", "-n", ns, "immutable", "--type=merge", "-p", `{"spec":{"cidr":"10.9.1.0/24"}}`)
		if err == nil {
			t.Fatalf("kubectl accepted a cidr change:\n%s", out)
		}
		if !strings.Contains(out, "cidr is immutable") {
			t.Errorf("message does not say the cidr is immutable:\n%s", out)
		}
		if got := GetNetwork(t, ns, "immutable").Spec.CIDR; got != "10.9.0.0/24" {
			t.Errorf("spec.cidr = %s after the refused change, want 10.9.0.0/24", got)
		}
		// The gateway, by contrast, may change.
		MustKubectl(t, "patch", "network", "-n", ns, "immutable", "--type=merge", "-p", `{"spec":{"gateway":"10.9.0.7"}}`)

		// With a gateway set, a new cidr is still refused as immutable, and only so: the
		// gateway is not judged against a cidr that cannot be stored (10.9.0.7 is outside
		// 10.9.1.0/24 and the broadcast address of 10.9.0.0/29).
		for _, cidr := range []string{"10.9.1.0/24", "10.9.0.0/29", "2001:db8:9::/64"} {
			out, err := Kubectl(t, "patch", "network", "-n", ns, "immutable", "--type=merge", "-p", fmt.Sprintf(`{"spec":{"cidr":%q}}`, cidr))
			if err == nil {
				t.Fatalf("kubectl accepted a cidr change to %s:\n%s", cidr, out)
			}
			if !strings.Contains(out, "cidr is immutable") {
				t.Errorf("cidr change to %s: message does not say the cidr is immutable:\n%s", cidr, out)
			}
			for _, unwanted := range []string{"spec.gateway", "must be inside cidr", "broadcast", "same IP family"} {
				if strings.Contains(out, unwanted) {
					t.Errorf("cidr change to %s: message contains %q; want only that the cidr is immutable:\n%s", cidr, unwanted, out)
				}
			}
		}
		if got := GetNetwork(t, ns, "immutable").Spec; got.CIDR != "10.9.0.0/24" || got.Gateway != "10.9.0.7" {
			t.Errorf("spec = %+v after the refused changes, want cidr 10.9.0.0/24 gateway 10.9.0.7", got)
		}
		// A gateway outside the stored cidr is still refused on update.
		out, err = Kubectl(t, "patch", "network", "-n", ns, "immutable", "--type=merge", "-p", `{"spec":{"gateway":"10.9.1.1"}}`)
		if err == nil || !strings.Contains(out, "gateway 10.9.1.1 must be inside cidr 10.9.0.0/24") {
			t.Errorf("gateway outside the cidr on update: err=%v, want the inside-cidr message:\n%s", err, out)
		}
	})

	t.Run("import on an existing object", func(t *testing.T) {
		t.Parallel()
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "imported.yaml",
			"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: imported\nspec:\n  import:\n    networkName: public\n"))
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "created.yaml",
			"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: created\nspec:\n  cidr: 10.9.5.0/24\n"))
		for _, tc := range []struct{ name, patch, want string }{
			{"imported", `{"spec":{"import":{"networkName":"other"}}}`, "import is immutable"},
			{"imported", `{"spec":{"import":null,"cidr":"10.9.6.0/24"}}`, "import cannot be added or removed once the Network exists"},
			{"imported", `{"spec":{"cidr":"10.9.6.0/24"}}`, "cidr cannot be added or removed once the Network exists"},
			{"created", `{"spec":{"import":{"networkName":"public"}}}`, "import cannot be added or removed once the Network exists"},
		} {
			out, err := Kubectl(t, "patch", "network", "-n", ns, tc.name, "--type=merge", "-p", tc.patch)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Errorf("patch %s %s: err=%v, want %q:\n%s", tc.name, tc.patch, err, tc.want, out)
			}
		}
	})

	t.Run("ipv6 modes on an existing object", func(t *testing.T) {
		t.Parallel()
		file := WriteFile(t, "modes.yaml",
			"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: modes\nspec:\n  cidr: 2001:db8:9::/64\n  ipv6AddressMode: slaac\n")
		MustKubectl(t, "apply", "-n", ns, "-f", file)
		for _, tc := range []struct{ patch, want string }{
			{`{"spec":{"ipv6AddressMode":"dhcpv6-stateless"}}`, "ipv6AddressMode is immutable"},
			{`{"spec":{"ipv6AddressMode":null}}`, "ipv6AddressMode cannot be added or removed once the Network exists"},
			{`{"spec":{"ipv6RAMode":"slaac"}}`, "ipv6RAMode cannot be added or removed once the Network exists"},
			{`{"spec":{"enableDHCP":false}}`, "enableDHCP must be true while ipv6AddressMode or ipv6RAMode is set"},
		} {
			out, err := Kubectl(t, "patch", "network", "-n", ns, "modes", "--type=merge", "-p", tc.patch)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Errorf("patch %s: err=%v, want %q:\n%s", tc.patch, err, tc.want, out)
			}
		}
		if got := GetNetwork(t, ns, "modes").Spec; got.IPv6AddressMode != "slaac" || got.IPv6RAMode != "" || (got.EnableDHCP != nil && !*got.EnableDHCP) {
			t.Errorf("spec = %+v after the refused changes, want ipv6AddressMode slaac alone, DHCP on", got)
		}
	})

	t.Run("valid specs are accepted", func(t *testing.T) {
		t.Parallel()
		for i, spec := range []string{
			`{cidr: "10.8.0.0/30"}`, `{cidr: "10.8.1.0/24", gateway: "10.8.1.254"}`,
			`{cidr: "2001:db8:8::/64"}`, `{cidr: "2001:db8:9::/126", gateway: "2001:db8:9::3"}`,
			`{cidr: "10.8.2.0/24", enableDHCP: false, dnsNameservers: ["10.8.2.2", "192.0.2.53", "1.1.1.1", "8.8.8.8", "9.9.9.9"], ` +
				`hostRoutes: [{destination: "0.0.0.0/0", nextHop: "10.8.2.1"}, {destination: "10.9.0.0/16", nextHop: "10.8.2.254"}]}`,
			`{cidr: "2001:db8:a::/64", dnsNameservers: ["2001:db8::53"], hostRoutes: [{destination: "::/0", nextHop: "2001:db8:a::fe"}]}`,
			`{cidr: "10.8.3.0/24", gatewayMode: None, allocationPools: [{start: "10.8.3.1", end: "10.8.3.9"}, {start: "10.8.3.10", end: "10.8.3.254"}]}`,
			`{cidr: "10.8.4.0/24", gateway: "10.8.4.100", allocationPools: [{start: "10.8.4.101", end: "10.8.4.254"}, {start: "10.8.4.2", end: "10.8.4.99"}]}`,
			`{cidr: "2001:db8:b::/64", ipv6AddressMode: slaac, ipv6RAMode: slaac, allocationPools: [{start: "2001:db8:b::10", end: "2001:db8:b::ffff"}]}`,
			`{cidr: "2001:db8:c::/80", ipv6AddressMode: dhcpv6-stateful}`,
			`{cidr: "2001:db8:d::/64", ipv6RAMode: dhcpv6-stateless, gatewayMode: None}`,
			`{import: {networkName: public}}`, `{import: {networkID: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"}, cidr: "10.8.5.0/24"}`,
		} {
			name := fmt.Sprintf("valid-%d", i)
			file := WriteFile(t, name+".yaml", fmt.Sprintf(
				"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: %s\nspec: %s\n", name, spec))
			MustKubectl(t, "apply", "--dry-run=server", "-n", ns, "-f", file)
		}
	})
}

// networkYAML is a Network named name with spec, written as YAML.
func networkYAML(name, spec string) string {
	return fmt.Sprintf("apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: %s\nspec: %s\n", name, spec)
}

// wantRefused applies the Network name with spec through kubectl and wants the apiserver
// to refuse it with a validation error that says every one of want and none of notWant.
func wantRefused(t *testing.T, ns, name, spec string, want, notWant []string) {
	t.Helper()
	out, err := Kubectl(t, "apply", "-n", ns, "-f", WriteFile(t, name+".yaml", networkYAML(name, spec)))
	if err == nil {
		t.Fatalf("kubectl accepted spec %s:\n%s", spec, out)
	}
	if !strings.Contains(out, "is invalid") {
		t.Errorf("kubectl failed, but not with a validation error:\n%s", out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("message does not contain %q:\n%s", w, out)
		}
	}
	for _, unwanted := range notWant {
		if strings.Contains(out, unwanted) {
			t.Errorf("message contains %q, which does not fit spec %s:\n%s", unwanted, spec, out)
		}
	}
	if _, err := TryGetNetwork(t, ns, name); err == nil {
		t.Errorf("Network %s exists although kubectl was refused", name)
	}
}
