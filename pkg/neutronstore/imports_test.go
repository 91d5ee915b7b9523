package neutronstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// importWorld is a Neutron with networks the controller did not create (a project's own,
// one shared with several subnets, two of one name, one without subnet) beside one of
// the cluster's own, tagged, and one of the cluster's whose create was cut off before
// its tags.
func importWorld(t *testing.T) (*neutronstore.Store, *fake.Driver) {
	t.Helper()
	s, d, own := newStoreWithNetwork(t) // the owner's network, tagged, in the store
	if own.ID != "net-1" {
		t.Fatalf("the cluster's network is %s, the cases expect net-1", own.ID)
	}
	foreign := func(id, name string, cidrs ...string) {
		d.PutNetwork(neutron.Network{ID: id, Name: name, MTU: 1450})
		for i, c := range cidrs {
			d.PutSubnet(neutron.Subnet{ID: id + "-s" + string(rune('a'+i)), NetworkID: id, CIDR: c, GatewayIP: strings.TrimSuffix(c, "0/24") + "1"})
		}
	}
	foreign("own", "app", "10.1.0.0/24")
	foreign("shared", "public", "10.2.0.0/24", "10.3.0.0/24")
	foreign("twin-b", "twin", "10.4.0.0/24")
	foreign("twin-a", "twin", "10.5.0.0/24")
	foreign("bare", "bare")
	d.PutNetwork(neutron.Network{ID: "untagged", Name: "k8s_ns_b_uid-b", Description: neutron.ClusterDescription(owner.ClusterID)})
	d.ClearCalls()
	return s, d
}

// Each decision Resolve makes, the same whether the one network was looked up alone
// (LookupImport) or with every import of the project (ListVisible).
func TestResolveImport(t *testing.T) {
	ownName := owner.ResourceName()
	for _, tc := range []struct {
		name        string
		ref         neutron.ImportRef
		recorded    string
		wantNetwork string
		wantSubnet  string
		wantProblem neutron.ImportProblem
		wantMessage []string
	}{
		{name: "by ID, its only subnet", ref: neutron.ImportRef{NetworkID: "own"}, wantNetwork: "own", wantSubnet: "own-sa"},
		{name: "by name, its only subnet", ref: neutron.ImportRef{NetworkName: "app"}, wantNetwork: "own", wantSubnet: "own-sa"},
		{name: "by name, the subnet cidr chooses", ref: neutron.ImportRef{NetworkName: "public", CIDR: "10.3.0.0/24"},
			wantNetwork: "shared", wantSubnet: "shared-sb"},
		{name: "two subnets and no cidr", ref: neutron.ImportRef{NetworkID: "shared"}, wantProblem: neutron.ImportSubnetAmbiguous,
			wantMessage: []string{"has 2 subnets: shared-sa (10.2.0.0/24), shared-sb (10.3.0.0/24)", "set spec.cidr"}},
		{name: "a cidr the network has no subnet of", ref: neutron.ImportRef{NetworkID: "shared", CIDR: "10.9.0.0/24"},
			wantProblem: neutron.ImportSubnetNotFound, wantMessage: []string{"has no subnet 10.9.0.0/24", "its subnets: shared-sa (10.2.0.0/24)"}},
		{name: "a network without subnet", ref: neutron.ImportRef{NetworkName: "bare"}, wantProblem: neutron.ImportSubnetNotFound,
			wantMessage: []string{"network bare has no subnet"}},
		{name: "a name two networks have", ref: neutron.ImportRef{NetworkName: "twin"}, wantProblem: neutron.ImportAmbiguous,
			wantMessage: []string{`2 Neutron networks named "twin"`, "twin-a, twin-b", "by networkID"}},
		{name: "a name no network has", ref: neutron.ImportRef{NetworkName: "nothing"}, wantProblem: neutron.ImportNotFound,
			wantMessage: []string{`no Neutron network named "nothing" is visible`}},
		{name: "an ID no network has", ref: neutron.ImportRef{NetworkID: "gone"}, wantProblem: neutron.ImportNotFound,
			wantMessage: []string{"no Neutron network gone is visible"}},
		{name: "the network found before is gone (by ID)", ref: neutron.ImportRef{NetworkID: "gone"}, recorded: "gone",
			wantProblem: neutron.ImportDeleted, wantMessage: []string{"gone is gone", "never recreates"}},
		{name: "the network found before is gone (by name)", ref: neutron.ImportRef{NetworkName: "nothing"}, recorded: "old",
			wantProblem: neutron.ImportDeleted, wantMessage: []string{`old (named "nothing") is gone`}},
		// Once found, an import follows its network by ID: never another that takes its name.
		{name: "a name that now means another network: not followed", ref: neutron.ImportRef{NetworkName: "app"}, recorded: "old",
			wantProblem: neutron.ImportDeleted, wantMessage: []string{`old (named "app") is gone`, "does not follow Neutron network own"}},
		{name: "a name the network found before now shares with another: still that one", ref: neutron.ImportRef{NetworkName: "twin"}, recorded: "twin-a",
			wantNetwork: "twin-a", wantSubnet: "twin-a-sa"},
		{name: "the cluster's own network, by ID", ref: neutron.ImportRef{NetworkID: "net-1"}, wantProblem: neutron.ImportManaged,
			wantMessage: []string{"carries the cluster's marks"}},
		{name: "the cluster's own network, by name", ref: neutron.ImportRef{NetworkName: ownName}, wantProblem: neutron.ImportManaged},
		{name: "the cluster's network never tagged", ref: neutron.ImportRef{NetworkID: "untagged"}, wantProblem: neutron.ImportManaged},
		// Neutron finds a network by its ID in capitals; so must the checks of what it found.
		{name: "by ID in capitals", ref: neutron.ImportRef{NetworkID: "OWN"}, wantNetwork: "own", wantSubnet: "own-sa"},
		{name: "the cluster's own network, by ID in capitals", ref: neutron.ImportRef{NetworkID: "NET-1"}, wantProblem: neutron.ImportManaged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, d := importWorld(t)
			ctx := context.Background()
			ref := tc.ref
			ref.FoundID = tc.recorded
			looked, err := s.LookupImport(ctx, ref)
			if err != nil {
				t.Fatal(err)
			}
			lookupCalls := d.Calls()
			d.ClearCalls()
			listed, err := s.ListVisible(ctx, []neutron.ImportRef{ref, {NetworkName: "app"}, {NetworkID: "twin-a"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Calls(); !slices.Equal(got, []string{"list networks", "list subnets"}) {
				t.Errorf("ListVisible calls = %q, want one list of networks and one of subnets", got)
			}
			if want := []string{"list networks"}; tc.wantNetwork != "" || tc.wantProblem >= neutron.ImportSubnetNotFound {
				if want = append(want, "list subnets"); !slices.Equal(lookupCalls, want) {
					t.Errorf("LookupImport calls = %q, want %q", lookupCalls, want)
				}
			} else if !slices.Equal(lookupCalls, want) {
				t.Errorf("LookupImport calls = %q, want %q", lookupCalls, want)
			}
			for which, v := range map[string]neutron.Visible{"looked up": looked, "listed": listed} {
				got := v.Resolve(ref)
				if got.Problem != tc.wantProblem || (tc.wantProblem == 0 && (got.Network.ID != tc.wantNetwork || got.Subnet.ID != tc.wantSubnet)) {
					t.Errorf("%s: Resolve = network %q subnet %q problem %d %q, want network %q subnet %q problem %d",
						which, got.Network.ID, got.Subnet.ID, got.Problem, got.Message, tc.wantNetwork, tc.wantSubnet, tc.wantProblem)
				}
				for _, m := range tc.wantMessage {
					if !strings.Contains(got.Message, m) {
						t.Errorf("%s: message %q does not say %q", which, got.Message, m)
					}
				}
			}
			if got := d.Calls(); slices.ContainsFunc(got, func(op string) bool { return !strings.HasPrefix(op, "list ") }) {
				t.Errorf("an import wrote to Neutron: %q", got)
			}
		})
	}
}

// The subnets of many imported networks are listed 100 networks at a time: the IDs go
// into the URL.
func TestListVisibleListsSubnetsInChunks(t *testing.T) {
	s, d := newStore(t)
	var refs []neutron.ImportRef
	for i := range 150 {
		id := "n" + strings.Repeat("x", i%3) + string(rune('0'+i%10)) + string(rune('a'+i/10))
		d.PutNetwork(neutron.Network{ID: id})
		d.PutSubnet(neutron.Subnet{ID: id + "-s", NetworkID: id, CIDR: "10.0.0.0/24"})
		refs = append(refs, neutron.ImportRef{NetworkID: id})
	}
	d.ClearCalls()
	v, err := s.ListVisible(context.Background(), refs)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Calls(); !slices.Equal(got, []string{"list networks", "list subnets", "list subnets"}) {
		t.Errorf("calls = %q, want one list of networks and two of subnets", got)
	}
	for _, ref := range refs {
		if got := v.Resolve(ref); got.Problem != 0 || got.Subnet.ID != ref.NetworkID+"-s" {
			t.Errorf("%s: %+v", ref, got)
		}
	}
}
