package neutron

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNamesOfTheLongestValidObjectFitNeutron(t *testing.T) {
	o := Owner{
		ClusterID: strings.Repeat("c", MaxClusterIDLength),
		Namespace: strings.Repeat("n", 63),
		Name:      strings.Repeat("a", 253),
		UID:       "0f8b5e1c-3d8e-4c1e-9a57-2f0e6f1b9c77",
	}
	name := o.ResourceName()
	if len(name) > MaxFieldLength || !strings.HasSuffix(name, "_"+o.UID) {
		t.Errorf("name %q (%d characters) must fit in %d and end with the uid", name, len(name), MaxFieldLength)
	}
	if uid, ok := OwnerUID(Network{Name: name}); !ok || uid != o.UID {
		t.Errorf("OwnerUID of the shortened name = %q, %v", uid, ok)
	}
	if d := ClusterDescription(o.ClusterID); len(d) > MaxFieldLength {
		t.Errorf("description %q has %d characters", d, len(d))
	}
}

func TestOwnerMarks(t *testing.T) {
	o := Owner{ClusterID: "c1", Namespace: "ns", Name: "net", UID: "u1"}
	if !o.HasTags([]string{"other", "k8s-cluster=c1", "k8s-uid=u1"}) {
		t.Error("HasTags false for a resource carrying both tags")
	}
	if o.HasTags([]string{"k8s-cluster=c1"}) {
		t.Error("HasTags true without the owner tag")
	}
	if got := o.ResourceName(); got != "k8s_ns_net_u1" {
		t.Errorf("ResourceName = %q", got)
	}
	if got, want := ClusterDescription("c1"), "Managed by network-controller for cluster c1"; got != want {
		t.Errorf("ClusterDescription = %q, want %q", got, want)
	}
	for _, n := range []Network{{Tags: o.Tags()}, {Name: o.ResourceName()}, {Name: "k8s_a.b_c-d_u1", Tags: []string{"x"}}} {
		if uid, ok := OwnerUID(n); !ok || uid != "u1" {
			t.Errorf("OwnerUID(%+v) = %q, %v; want u1", n, uid, ok)
		}
	}
	for _, n := range []Network{{}, {Name: "private"}, {Name: "k8s_"}, {Name: "k8s_ns_net_"}} {
		if uid, ok := OwnerUID(n); ok {
			t.Errorf("OwnerUID(%+v) = %q; want none", n, uid)
		}
	}
	for _, bad := range []string{"", "a,b", "has space", string(make([]byte, MaxClusterIDLength+1))} {
		if ValidateClusterID(bad) == nil {
			t.Errorf("ValidateClusterID(%q) accepted", bad)
		}
	}
	if err := ValidateClusterID("0b5f7c6e-2f4b-4a5e-9a49-6c1d0e8b7a11"); err != nil {
		t.Errorf("a UID cluster ID rejected: %v", err)
	}
}

// FuzzOwnerMarks checks every valid namespace and name: the marks fit Neutron's limits, are
// the same every time, and differ between owners.
func FuzzOwnerMarks(f *testing.F) {
	f.Add("default", "example-network", "default", "example-network2")
	f.Add(strings.Repeat("n", 63), strings.Repeat("a", 253), strings.Repeat("n", 63), strings.Repeat("a", 252)+"b")
	f.Add("a", strings.Repeat("x", 200), "a", strings.Repeat("x", 201))
	f.Fuzz(func(t *testing.T, ns1, name1, ns2, name2 string) {
		if !validNamespace(ns1) || !validName(name1) || !validNamespace(ns2) || !validName(name2) {
			t.Skip()
		}
		const uid = "0f8b5e1c-3d8e-4c1e-9a57-2f0e6f1b9c77"
		a := Owner{ClusterID: "0a4c3c5e-7c55-4b1b-a5c0-4b1a6f6b6e01", Namespace: ns1, Name: name1, UID: uid}
		b := Owner{ClusterID: a.ClusterID, Namespace: ns2, Name: name2, UID: uid}
		name := a.ResourceName()
		if len(name) > MaxFieldLength || !utf8.ValidString(name) {
			t.Fatalf("%q: %d bytes, want at most %d valid UTF-8", name, len(name), MaxFieldLength)
		}
		if name != a.ResourceName() {
			t.Fatal("name differs between two calls")
		}
		if uid, ok := OwnerUID(Network{Name: name}); !ok || uid != a.UID {
			t.Fatalf("OwnerUID(%q) = %q, %v", name, uid, ok)
		}
		// Same UID on purpose: the namespace/name part alone must keep owners apart.
		if (ns1 != ns2 || name1 != name2) && name == b.ResourceName() {
			t.Fatalf("%s/%s and %s/%s share the name %q", ns1, name1, ns2, name2, name)
		}
	})
}

// validName accepts Kubernetes object names (DNS subdomains, at most 253 characters).
func validName(s string) bool {
	return len(s) > 0 && len(s) <= 253 && dnsChars(s, true)
}

// validNamespace accepts namespace names (DNS labels, at most 63 characters).
func validNamespace(s string) bool {
	return len(s) > 0 && len(s) <= 63 && dnsChars(s, false)
}

func dnsChars(s string, dots bool) bool {
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case (r == '-' || (dots && r == '.')) && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return true
}

func TestOwnerNamespaceFromTheName(t *testing.T) {
	long := Owner{ClusterID: "c", Namespace: strings.Repeat("n", 63), Name: strings.Repeat("x", 253), UID: "0a1b2c3d-0000-0000-0000-000000000000"}
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{Owner{Namespace: "team-a", Name: "net", UID: "u"}.ResourceName(), "team-a", true},
		{long.ResourceName(), long.Namespace, true},
		{"someone-elses-network", "", false},
		{"k8s_", "", false},
	} {
		got, ok := OwnerNamespace(Network{Name: tc.name})
		if got != tc.want || ok != tc.ok {
			t.Errorf("OwnerNamespace(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// A subnet's name carries its item, and the item is read back from it, for short names
// and for names shortened to fit Neutron alike; the one-subnet form's name is the
// network's.
func TestSubnetNamesCarryTheirItem(t *testing.T) {
	short := Owner{ClusterID: "c", Namespace: "ns", Name: "net", UID: "11111111-2222-3333-4444-555555555555"}
	long := Owner{ClusterID: "c", Namespace: strings.Repeat("n", 63), Name: strings.Repeat("a", 253), UID: short.UID}
	for _, o := range []Owner{short, long} {
		for _, item := range []string{"", "v4", "ipv6-pool", strings.Repeat("x", 63)} {
			name := o.SubnetName(item)
			if len(name) > MaxFieldLength {
				t.Errorf("SubnetName(%q) is %d bytes, over Neutron's %d", item, len(name), MaxFieldLength)
			}
			if got := o.SubnetItem(Subnet{Name: name}); got != item {
				t.Errorf("SubnetItem(%q) = %q, want %q", name, got, item)
			}
		}
		if o.SubnetName("") != o.ResourceName() {
			t.Errorf("the one-subnet form's subnet is named %q, want the network's %q", o.SubnetName(""), o.ResourceName())
		}
	}
	if got := short.SubnetItem(Subnet{Name: "made-by-hand"}); got != "" {
		t.Errorf("a name the controller did not give reads as item %q, want the one-subnet form's", got)
	}
}
