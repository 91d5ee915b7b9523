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
	}{
		{"bad cidr text", `{cidr: "10.0.0/24"}`,
			[]string{"spec.cidr", "cidr must be a valid IPv4 or IPv6 CIDR"}},
		{"not a cidr at all", `{cidr: "banana"}`,
			[]string{"spec.cidr", "cidr must be a valid IPv4 or IPv6 CIDR"}},
		{"host bits set", `{cidr: "10.0.0.1/24"}`,
			[]string{"spec.cidr", "host bits zero"}},
		{"non-canonical ipv6", `{cidr: "2001:DB8::/64"}`,
			[]string{"spec.cidr", "canonical form"}},
		{"too small ipv4", `{cidr: "10.0.0.0/31"}`,
			[]string{"spec.cidr", "cidr is too small"}},
		{"too small ipv6", `{cidr: "2001:db8::/127"}`,
			[]string{"spec.cidr", "cidr is too small"}},
		{"gateway outside cidr", `{cidr: "10.0.0.0/24", gateway: "10.0.1.1"}`,
			[]string{"spec.gateway", "gateway 10.0.1.1 must be inside cidr 10.0.0.0/24"}},
		{"gateway is the network address", `{cidr: "10.0.0.0/24", gateway: "10.0.0.0"}`,
			[]string{"spec.gateway", "gateway 10.0.0.0 must not be the network address of cidr 10.0.0.0/24"}},
		{"ipv6 gateway is the subnet-router anycast address", `{cidr: "2001:db8::/64", gateway: "2001:db8::"}`,
			[]string{"spec.gateway", "must not be the network address"}},
		{"gateway is the broadcast address", `{cidr: "10.0.0.0/24", gateway: "10.0.0.255"}`,
			[]string{"spec.gateway", "gateway 10.0.0.255 must not be the broadcast address of cidr 10.0.0.0/24"}},
		{"ipv6 gateway for ipv4 cidr", `{cidr: "10.0.0.0/24", gateway: "2001:db8::1"}`,
			[]string{"spec.gateway", "gateway 2001:db8::1 must be of the same IP family as cidr 10.0.0.0/24"}},
		{"ipv4 gateway for ipv6 cidr", `{cidr: "2001:db8::/64", gateway: "10.0.0.1"}`,
			[]string{"spec.gateway", "must be of the same IP family as cidr"}},
		{"bad gateway text", `{cidr: "10.0.0.0/24", gateway: "10.0.0.300"}`,
			[]string{"spec.gateway", "gateway must be a valid IPv4 or IPv6 address"}},
		{"missing cidr", `{gateway: "10.0.0.1"}`,
			[]string{"spec.cidr", "Required value"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			name := fmt.Sprintf("invalid-%d", i)
			file := WriteFile(t, name+".yaml", fmt.Sprintf(
				"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: %s\nspec: %s\n", name, tc.spec))
			out, err := Kubectl(t, "apply", "-n", ns, "-f", file)
			if err == nil {
				t.Fatalf("kubectl accepted spec %s:\n%s", tc.spec, out)
			}
			if !strings.Contains(out, "is invalid") {
				t.Errorf("kubectl failed, but not with a validation error:\n%s", out)
			}
			for _, want := range tc.wantMsg {
				if !strings.Contains(out, want) {
					t.Errorf("message does not contain %q:\n%s", want, out)
				}
			}
			if _, err := TryGetNetwork(t, ns, name); err == nil {
				t.Errorf("Network %s exists although kubectl was refused", name)
			}
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
	})

	t.Run("valid specs are accepted", func(t *testing.T) {
		t.Parallel()
		for i, spec := range []string{
			`{cidr: "10.8.0.0/30"}`, `{cidr: "10.8.1.0/24", gateway: "10.8.1.254"}`,
			`{cidr: "2001:db8:8::/64"}`, `{cidr: "2001:db8:9::/126", gateway: "2001:db8:9::3"}`,
		} {
			name := fmt.Sprintf("valid-%d", i)
			file := WriteFile(t, name+".yaml", fmt.Sprintf(
				"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: %s\nspec: %s\n", name, spec))
			MustKubectl(t, "apply", "--dry-run=server", "-n", ns, "-f", file)
		}
	})
}
