package reconcile

import (
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// What the CRD refuses in spec.subnets is refused again before any Neutron call, for a CRD
// installed without its rules: what an item hands on to Neutron (its name, in its
// subnet's name, and its pool's) is checked as it is used, and so is the number of items.
func TestDesiredRefusesItemsTheCRDRefuses(t *testing.T) {
	item := func(name, cidr string) samplecrdv1.NetworkSubnet {
		return samplecrdv1.NetworkSubnet{Name: name, SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}}
	}
	length := int32(64)
	pooled := func(ref samplecrdv1.SubnetPoolRef) samplecrdv1.NetworkSubnet {
		return samplecrdv1.NetworkSubnet{Name: "p", SubnetPool: &ref, PrefixLength: &length}
	}
	many := make([]samplecrdv1.NetworkSubnet, 9)
	for i := range many {
		many[i] = item(string(rune('a'+i)), "10.0."+string(rune('0'+i))+".0/24")
	}
	for _, tc := range []struct {
		name  string
		items []samplecrdv1.NetworkSubnet
		want  string
	}{
		{"a name with an underscore would read back as another item", []samplecrdv1.NetworkSubnet{item("a_b", "10.0.0.0/24")}, `name "a_b" is not a DNS label`},
		{"a name too long for a label", []samplecrdv1.NetworkSubnet{item(strings.Repeat("a", 64), "10.0.0.0/24")}, "is not a DNS label"},
		{"more items than the CRD allows", many, "subnets lists 9 items: at most 8"},
		{"a pool id that is not a UUID", []samplecrdv1.NetworkSubnet{pooled(samplecrdv1.SubnetPoolRef{ID: "../admin"})}, `subnetPool id "../admin" is not the UUID`},
		{"a pool by id and by name", []samplecrdv1.NetworkSubnet{pooled(samplecrdv1.SubnetPoolRef{ID: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f", Name: "x"})}, "exactly one of id or name"},
		{"both cidr and a pool", []samplecrdv1.NetworkSubnet{{Name: "p", SubnetPool: &samplecrdv1.SubnetPoolRef{Name: "x"}, PrefixLength: &length,
			SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.0.0.0/24"}}}, "give either cidr, or subnetPool with prefixLength"},
		{"a pool without a prefix length", []samplecrdv1.NetworkSubnet{{Name: "p", SubnetPool: &samplecrdv1.SubnetPoolRef{Name: "x"}}}, "give either cidr, or subnetPool with prefixLength"},
		{"a gateway on a pool item", []samplecrdv1.NetworkSubnet{{Name: "p", SubnetPool: &samplecrdv1.SubnetPoolRef{Name: "x"}, PrefixLength: &length,
			SubnetFields: samplecrdv1.SubnetFields{Gateway: "10.0.0.1"}}}, "gateway 10.0.0.1 is set for a subnet allocated from a subnet pool"},
		{"two items of one name", []samplecrdv1.NetworkSubnet{item("a", "10.0.0.0/24"), item("a", "10.0.1.0/24")}, "are both named a"},
		{"both forms", nil, "cidr and subnets are both set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &samplecrdv1.Network{Spec: samplecrdv1.NetworkSpec{Subnets: tc.items}}
			if tc.items == nil {
				n.Spec = samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.0.0.0/24"}, Subnets: []samplecrdv1.NetworkSubnet{item("a", "10.0.1.0/24")}}
			}
			if _, err := Desired(n); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Desired = %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// What goes to Neutron from spec.router and spec.sharedWith is checked again, as the CRD
// checks it, for a CRD installed without its rules.
func TestDesiredRefusesRoutersAndSharingTheCRDRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec samplecrdv1.NetworkSpec
		want string
	}{
		{"every project", samplecrdv1.NetworkSpec{SharedWith: []samplecrdv1.ProjectID{"*"}}, `sharedWith item "*" is not an OpenStack project ID`},
		{"a path for a project", samplecrdv1.NetworkSpec{SharedWith: []samplecrdv1.ProjectID{"../admin"}}, `sharedWith item "../admin"`},
		{"a project twice", samplecrdv1.NetworkSpec{SharedWith: []samplecrdv1.ProjectID{"p1", "p1"}}, "lists project p1 twice"},
		{"a router id that is not a UUID", samplecrdv1.NetworkSpec{Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{ID: "x?y"}}},
			`router existing id "x?y" is not the UUID`},
		{"both kinds of router", samplecrdv1.NetworkSpec{Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: "a"},
			ExternalNetwork: &samplecrdv1.NeutronRef{Name: "b"}}}, "exactly one of externalNetwork or existing"},
		{"a router item that is no item", samplecrdv1.NetworkSpec{Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: "a"}, Subnets: []string{"z"}}},
			"router subnets names z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.CIDR = "10.0.0.0/24"
			_, err := Desired(&samplecrdv1.Network{Spec: tc.spec})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Desired = %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
