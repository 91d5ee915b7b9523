//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The CRD's rules on the list form, spec.subnets, at the door, like
// TestValidationRejectsInvalidSpecs for the one-subnet form: each refused spec gets a
// message that names the item, by its index in the field path or by its name in the
// message. Admission only: no controller runs, so nothing reaches Neutron.
func TestSubnetsAdmission(t *testing.T) {
	ns := NewNamespace(t)

	t.Run("valid lists are admitted", func(t *testing.T) {
		t.Parallel()
		for i, spec := range []string{
			// Dual stack.
			`{subnets: [{name: v4, cidr: "10.30.0.0/24"}, {name: v6, cidr: "2001:db8:30::/64", ipv6AddressMode: slaac, ipv6RAMode: slaac}]}`,
			// A subnet-pool item, with a prefix length.
			`{subnets: [{name: pool, subnetPool: {name: shared-v4}, prefixLength: 26}]}`,
			`{subnets: [{name: v4, cidr: "10.30.1.0/24", gateway: "10.30.1.254", dnsNameservers: ["10.30.1.2"]}, ` +
				`{name: v6, subnetPool: {id: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"}, prefixLength: 64, ipv6AddressMode: dhcpv6-stateless, gatewayMode: None}]}`,
			// Adjacent ranges do not overlap; neither do two families.
			`{mtu: 1500, subnets: [{name: a, cidr: "10.30.2.0/25"}, {name: b, cidr: "10.30.2.128/25"}, {name: c, cidr: "2001:db8:31::/64"}, {name: d, cidr: "2001:db8:32::/64"}]}`,
			`{mtu: 1200, subnets: [{name: v4, cidr: "10.30.3.0/24"}]}`,
		} {
			name := fmt.Sprintf("valid-%d", i)
			MustKubectl(t, "apply", "--dry-run=server", "-n", ns, "-f", WriteFile(t, name+".yaml", networkYAML(name, spec)))
		}
	})

	cases := []struct {
		name    string
		spec    string // YAML flow mapping
		wantMsg []string
		notMsg  []string
	}{
		{"overlapping items", `{subnets: [{name: v6, cidr: "2001:db8:40::/64"}, {name: v4a, cidr: "10.40.0.0/24"}, {name: v4b, cidr: "10.40.0.0/16"}]}`,
			[]string{"spec.subnets: Invalid value", "subnets v4a (10.40.0.0/24) and v4b (10.40.0.0/16) overlap"}, []string{"v6 ("}},
		{"overlapping ipv6 items", `{subnets: [{name: wide, cidr: "2001:db8:40::/48"}, {name: narrow, cidr: "2001:db8:40:1::/64"}]}`,
			[]string{"spec.subnets", "subnets wide (2001:db8:40::/48) and narrow (2001:db8:40:1::/64) overlap"}, nil},
		{"an invalid cidr is not judged for overlap", `{subnets: [{name: a, cidr: "10.40.0.0/16"}, {name: b, cidr: "10.40.0/24"}]}`,
			[]string{"spec.subnets[1].cidr", "cidr must be a valid IPv4 or IPv6 CIDR"}, []string{"overlap"}},
		{"both forms at once", `{cidr: "10.41.0.0/24", gateway: "10.41.0.1", subnets: [{name: v4, cidr: "10.41.0.0/24"}]}`,
			[]string{"spec.cidr: Forbidden: cidr cannot be set together with subnets", "spec.gateway: Forbidden: gateway cannot be set together with subnets",
				"move gateway into the items of subnets, or remove subnets"}, nil},
		{"a default of the one-subnet form spelled out beside subnets", `{enableDHCP: true, subnets: [{name: v4, cidr: "10.41.1.0/24"}]}`,
			[]string{"spec.enableDHCP: Forbidden: enableDHCP cannot be set together with subnets"}, []string{"spec.cidr"}},
		{"duplicate names", `{subnets: [{name: v4, cidr: "10.42.0.0/24"}, {name: v4, cidr: "10.42.1.0/24"}]}`,
			[]string{"spec.subnets[1]", "Duplicate value", `"name":"v4"`}, nil},
		{"pool without prefix length", `{subnets: [{name: v4, cidr: "10.43.0.0/24"}, {name: pool, subnetPool: {name: shared}}]}`,
			[]string{"spec.subnets[1].prefixLength", "Required value", "prefixLength is required with subnetPool (subnets item pool)"}, []string{"spec.subnets[0]"}},
		{"cidr and subnetPool both", `{subnets: [{name: both, cidr: "10.44.0.0/24", subnetPool: {name: shared}, prefixLength: 26}]}`,
			[]string{"spec.subnets[0]", "subnets item both sets both cidr and subnetPool: set exactly one"}, nil},
		{"neither cidr nor subnetPool", `{subnets: [{name: empty, gatewayMode: None}]}`,
			[]string{"spec.subnets[0]", "subnets item empty sets neither cidr nor subnetPool"}, nil},
		{"item gateway outside its cidr", `{subnets: [{name: a, cidr: "10.45.0.0/24", gateway: "10.45.0.1"}, {name: b, cidr: "10.45.1.0/24", gateway: "10.45.2.1"}]}`,
			[]string{"spec.subnets[1].gateway", "gateway 10.45.2.1 must be inside cidr 10.45.1.0/24"}, []string{"spec.subnets[0]"}},
		{"item dns server of the other family", `{subnets: [{name: v6, cidr: "2001:db8:45::/64", dnsNameservers: ["10.45.0.53"]}]}`,
			[]string{"spec.subnets[0].dnsNameservers", "dnsNameservers entry 10.45.0.53 must be of the same IP family as cidr 2001:db8:45::/64"}, nil},
		{"prefix length with cidr", `{subnets: [{name: v4, cidr: "10.46.0.0/24", prefixLength: 24}]}`,
			[]string{"spec.subnets[0].prefixLength", "Forbidden", "prefixLength can only be set with subnetPool (subnets item v4)"}, nil},
		{"gateway and pools with subnetPool", `{subnets: [{name: pool, subnetPool: {name: shared}, prefixLength: 26, gateway: "10.47.0.1", allocationPools: [{start: "10.47.0.10", end: "10.47.0.20"}]}]}`,
			[]string{"spec.subnets[0].gateway: Forbidden: gateway cannot be set together with subnetPool (subnets item pool)",
				"spec.subnets[0].allocationPools: Forbidden: allocationPools cannot be set together with subnetPool (subnets item pool)"}, nil},
		{"subnetPool naming both an id and a name", `{subnets: [{name: pool, subnetPool: {name: shared, id: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"}, prefixLength: 26}]}`,
			[]string{"spec.subnets[0].subnetPool", "subnetPool must name exactly one of id or name"}, nil},
		{"slaac from a pool with a prefix length other than 64", `{subnets: [{name: v6, subnetPool: {name: shared-v6}, prefixLength: 56, ipv6AddressMode: slaac}]}`,
			[]string{"spec.subnets[0].ipv6AddressMode", "ipv6AddressMode slaac needs prefixLength 64", "subnets item v6"}, nil},
		{"ipv6 item with a small mtu", `{mtu: 1200, subnets: [{name: v4, cidr: "10.48.0.0/24"}, {name: v6, cidr: "2001:db8:48::/64"}]}`,
			[]string{"spec.mtu", "mtu must be at least 1280, the minimum for IPv6 (subnets item v6, cidr 2001:db8:48::/64)"}, nil},
		{"subnets with import", `{import: {networkName: public}, subnets: [{name: v4, cidr: "10.49.0.0/24"}]}`,
			[]string{"spec.subnets: Forbidden: subnets cannot be set together with import"}, nil},
		{"no subnet at all", `{mtu: 1500}`,
			[]string{"spec.cidr", "Required value", "cidr is required, unless import names an existing network or subnets lists the subnets"}, nil},
		{"empty list", `{subnets: []}`,
			[]string{"spec.subnets", "should have at least 1 items"}, nil},
		{"nine items", `{subnets: [` + func() string {
			items := make([]string, 9)
			for i := range items {
				items[i] = fmt.Sprintf(`{name: s%d, cidr: "10.50.%d.0/24"}`, i, i)
			}
			return strings.Join(items, ", ")
		}() + `]}`,
			[]string{"spec.subnets", "must have at most 8 items"}, nil},
		{"name not a DNS label", `{subnets: [{name: V4_a, cidr: "10.51.0.0/24"}]}`,
			[]string{"spec.subnets[0].name", "should match"}, nil},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantRefused(t, ns, fmt.Sprintf("refused-%d", i), tc.spec, tc.wantMsg, tc.notMsg)
		})
	}

	// patch applies a merge patch to the Network and wants it admitted (want == "") or
	// refused with every one of want in the message.
	patch := func(t *testing.T, name, p string, want ...string) {
		t.Helper()
		out, err := Kubectl(t, "patch", "network", "-n", ns, name, "--type=merge", "-p", p)
		if len(want) == 0 {
			if err != nil {
				t.Errorf("patch %s %s refused:\n%s", name, p, out)
			}
			return
		}
		if err == nil {
			t.Errorf("patch %s %s admitted, want it refused with %q:\n%s", name, p, want, out)
			return
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("patch %s %s: message does not contain %q:\n%s", name, p, w, out)
			}
		}
	}

	t.Run("one-subnet form moved to the list and back", func(t *testing.T) {
		t.Parallel()
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "moved.yaml", networkYAML("moved",
			`{cidr: "10.60.0.0/24", gateway: "10.60.0.1", dnsNameservers: ["10.60.0.2"]}`)))
		// A move that leaves a field at the top behind says which.
		patch(t, "moved", `{"spec":{"cidr":null,"subnets":[{"name":"v4","cidr":"10.60.0.0/24"}]}}`,
			"spec.gateway: Forbidden: gateway cannot be set together with subnets", "spec.dnsNameservers: Forbidden")
		// Removing cidr without adding subnets is no move.
		patch(t, "moved", `{"spec":{"cidr":null,"gateway":null,"dnsNameservers":null}}`,
			"cidr is required", "cidr cannot be added or removed once the Network exists")
		patch(t, "moved", `{"spec":{"cidr":null,"gateway":null,"dnsNameservers":null,`+
			`"subnets":[{"name":"v4","cidr":"10.60.0.0/24","gateway":"10.60.0.1","dnsNameservers":["10.60.0.2"]}]}}`)
		got := GetNetwork(t, ns, "moved").Spec
		if got.CIDR != "" || got.Gateway != "" || len(got.Subnets) != 1 || got.Subnets[0].Name != "v4" ||
			got.Subnets[0].CIDR != "10.60.0.0/24" || got.Subnets[0].Gateway != "10.60.0.1" {
			t.Fatalf("spec after the move = %+v, want only subnets [v4 10.60.0.0/24 gateway 10.60.0.1]", got)
		}

		// The item's range is as immutable as the one-subnet form's was.
		patch(t, "moved", `{"spec":{"subnets":[{"name":"v4","cidr":"10.60.1.0/24"}]}}`,
			"spec.subnets[0].cidr", "cidr is immutable")
		patch(t, "moved", `{"spec":{"subnets":[{"name":"v4","subnetPool":{"name":"shared"},"prefixLength":24}]}}`,
			"spec.subnets[0].cidr", "cidr cannot be added or removed once the subnet exists (subnets item v4)",
			"spec.subnets[0].subnetPool", "subnetPool cannot be added or removed once the subnet exists")
		// The item's gateway is judged against its cidr on update too.
		patch(t, "moved", `{"spec":{"subnets":[{"name":"v4","cidr":"10.60.0.0/24","gateway":"10.60.5.1"}]}}`,
			"spec.subnets[0].gateway", "gateway 10.60.5.1 must be inside cidr 10.60.0.0/24")
		// Options change in place; items come and go.
		patch(t, "moved", `{"spec":{"subnets":[{"name":"v4","cidr":"10.60.0.0/24","gateway":"10.60.0.254"},{"name":"v6","cidr":"2001:db8:60::/64"}]}}`)
		patch(t, "moved", `{"spec":{"subnets":null}}`, "cidr is required")

		// Back to the one-subnet form, judged as a create would be.
		patch(t, "moved", `{"spec":{"subnets":null,"cidr":"10.60.0.0/24","gateway":"10.60.9.1"}}`,
			"spec.gateway", "gateway 10.60.9.1 must be inside cidr 10.60.0.0/24")
		patch(t, "moved", `{"spec":{"subnets":null,"cidr":"10.60.0.0/24","gateway":"10.60.0.254"}}`)
		if got := GetNetwork(t, ns, "moved").Spec; got.CIDR != "10.60.0.0/24" || got.Gateway != "10.60.0.254" || len(got.Subnets) != 0 {
			t.Errorf("spec after the move back = %+v, want cidr 10.60.0.0/24 gateway 10.60.0.254 and no subnets", got)
		}
	})

	t.Run("a moved or renamed subnet keeps its ipv6 modes", func(t *testing.T) {
		t.Parallel()
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "modes.yaml", networkYAML("modes",
			`{cidr: "2001:db8:61::/64", ipv6AddressMode: slaac, ipv6RAMode: slaac}`)))
		patch(t, "modes", `{"spec":{"cidr":null,"ipv6AddressMode":null,"ipv6RAMode":null,"subnets":[{"name":"v6","cidr":"2001:db8:61::/64"}]}}`,
			"spec.subnets", "subnets item v6 takes over the subnet 2001:db8:61::/64 of the one-subnet form (ipv6AddressMode slaac, ipv6RAMode slaac)")
		patch(t, "modes", `{"spec":{"cidr":null,"ipv6AddressMode":null,"ipv6RAMode":null,`+
			`"subnets":[{"name":"v6","cidr":"2001:db8:61::/64","ipv6AddressMode":"slaac","ipv6RAMode":"slaac"}]}}`)
		patch(t, "modes", `{"spec":{"subnets":[{"name":"v6","cidr":"2001:db8:61::/64","ipv6AddressMode":"slaac"}]}}`,
			"spec.subnets[0].ipv6RAMode", "ipv6RAMode cannot be added or removed once the subnet exists (subnets item v6)")
		patch(t, "modes", `{"spec":{"subnets":[{"name":"renamed","cidr":"2001:db8:61::/64","ipv6AddressMode":"dhcpv6-stateless"}]}}`,
			"subnets item renamed takes over the subnet 2001:db8:61::/64 of item v6 (ipv6AddressMode slaac, ipv6RAMode slaac)")
		patch(t, "modes", `{"spec":{"subnets":null,"cidr":"2001:db8:61::/64"}}`,
			"the one-subnet form takes over the subnet 2001:db8:61::/64 of subnets item v6")
		patch(t, "modes", `{"spec":{"subnets":null,"cidr":"2001:db8:61::/64","ipv6AddressMode":"slaac","ipv6RAMode":"slaac"}}`)
	})

	t.Run("subnet-pool item on an existing object", func(t *testing.T) {
		t.Parallel()
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "pool.yaml", networkYAML("pool",
			`{subnets: [{name: v4, cidr: "10.62.0.0/24"}, {name: pool, subnetPool: {name: shared}, prefixLength: 26}]}`)))
		patch(t, "pool", `{"spec":{"subnets":[{"name":"v4","cidr":"10.62.0.0/24"},{"name":"pool","subnetPool":{"name":"shared"},"prefixLength":27}]}}`,
			"spec.subnets[1].prefixLength", "prefixLength is immutable")
		patch(t, "pool", `{"spec":{"subnets":[{"name":"v4","cidr":"10.62.0.0/24"},{"name":"pool","subnetPool":{"name":"other"},"prefixLength":26}]}}`,
			"spec.subnets[1].subnetPool", "subnetPool is immutable")
		patch(t, "pool", `{"spec":{"subnets":[{"name":"v4","cidr":"10.62.0.0/24"},{"name":"pool","subnetPool":{"id":"5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"},"prefixLength":26}]}}`,
			"spec.subnets[1].subnetPool", "subnetPool is immutable")
		patch(t, "pool", `{"spec":{"subnets":[{"name":"v4","cidr":"10.62.0.0/24"},{"name":"pool","cidr":"10.62.1.0/24"}]}}`,
			"spec.subnets[1].cidr", "cidr cannot be added or removed once the subnet exists (subnets item pool)",
			"spec.subnets[1].prefixLength", "prefixLength cannot be added or removed once the subnet exists")
		// Its other options change in place.
		patch(t, "pool", `{"spec":{"subnets":[{"name":"v4","cidr":"10.62.0.0/24"},{"name":"pool","subnetPool":{"name":"shared"},"prefixLength":26,"enableDHCP":false}]}}`)
		got := GetNetwork(t, ns, "pool").Spec
		if len(got.Subnets) != 2 || got.Subnets[1].SubnetPool == nil || got.Subnets[1].SubnetPool.Name != "shared" ||
			got.Subnets[1].PrefixLength == nil || *got.Subnets[1].PrefixLength != 26 {
			t.Errorf("spec after the refused changes = %+v, want item pool with subnetPool shared and prefixLength 26", got)
		}
	})

	t.Run("import cannot gain subnets", func(t *testing.T) {
		t.Parallel()
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "imported.yaml", networkYAML("imported", `{import: {networkName: public}}`)))
		patch(t, "imported", `{"spec":{"subnets":[{"name":"v4","cidr":"10.63.0.0/24"}]}}`,
			"spec.subnets: Forbidden: subnets cannot be set together with import")
	})
}
