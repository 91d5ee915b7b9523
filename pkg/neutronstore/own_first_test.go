package neutronstore_test

import (
	"context"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// A name finds the project's own resource first: another project's network shared in,
// its subnet pool shared in, or an admin's external network, under the same name, is
// never picked over the project's own; without one of its own, exactly one of the others
// is picked, and several are refused as ambiguous.

// An import by name: the project's own network over one shared in under its name.
func TestImportByNameFindsTheProjectsOwnFirst(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	put := func(id, name, project string) {
		d.PutNetwork(neutron.Network{ID: id, Name: name, ProjectID: project})
		d.PutSubnet(neutron.Subnet{ID: id + "-s", NetworkID: id, ProjectID: project, CIDR: "10.0.0.0/24"})
	}
	put("ours", "app", ourProject)
	put("bait", "app", otherProject)
	put("only-shared", "uplink", otherProject)
	put("twin-a", "edge", otherProject)
	put("twin-b", "edge", "p-third")
	s := newProjectStore(t, d)
	for _, tc := range []struct {
		name        string
		want        string
		wantProblem neutron.ImportProblem
	}{
		{name: "app", want: "ours"},
		{name: "uplink", want: "only-shared"},
		{name: "edge", wantProblem: neutron.ImportAmbiguous},
	} {
		ref := neutron.ImportRef{NetworkName: tc.name}
		looked, err := s.LookupImport(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		listed, err := s.ListVisible(ctx, []neutron.ImportRef{ref})
		if err != nil {
			t.Fatal(err)
		}
		for which, v := range map[string]neutron.Visible{"looked up": looked, "listed": listed} {
			got := v.Resolve(ref)
			if got.Problem != tc.wantProblem || got.Network.ID != tc.want || (tc.want != "" && got.Subnet.ID != tc.want+"-s") {
				t.Errorf("%s %q: network %q subnet %q problem %d %q; want network %q problem %d",
					which, tc.name, got.Network.ID, got.Subnet.ID, got.Problem, got.Message, tc.want, tc.wantProblem)
			}
		}
	}
}

// An external network by name: the project's own over the admin's of the same name,
// whether looked up alone or read by a fill.
func TestExternalNetworkByNameFindsTheProjectsOwnFirst(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	d.PutExternalNetwork(neutron.Network{ID: "admins-public", Name: "public", ProjectID: "admin"})
	d.PutExternalNetwork(neutron.Network{ID: "our-public", Name: "public", ProjectID: ourProject})
	d.PutExternalNetwork(neutron.Network{ID: "admins-dmz", Name: "dmz", ProjectID: "admin"})
	d.PutExternalNetwork(neutron.Network{ID: "admins-twin-a", Name: "twin", ProjectID: "admin"})
	d.PutExternalNetwork(neutron.Network{ID: "admins-twin-b", Name: "twin", ProjectID: "admin"})
	s := newProjectStore(t, d)
	for name, want := range map[string]string{"public": "our-public", "dmz": "admins-dmz", "twin": ""} {
		id, found, err := s.ExternalNetworkID(ctx, neutron.Ref{Name: name})
		if err != nil || id != want || found != (want != "") {
			t.Errorf("external network %q: %q, found %v, %v; want %q", name, id, found, err, want)
		}
	}
}

// A subnet pool by name: the project's own over one shared with every project.
func TestSubnetPoolByNameFindsTheProjectsOwnFirst(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	d.PutSubnetPool(neutron.SubnetPool{ID: "shared-pool", Name: "pool", ProjectID: otherProject, Shared: true, IPVersion: 4, Prefixes: []string{"10.9.0.0/16"}})
	d.PutSubnetPool(neutron.SubnetPool{ID: "our-pool", Name: "pool", ProjectID: ourProject, IPVersion: 4, Prefixes: []string{"10.8.0.0/16"}})
	s := newProjectStore(t, d)
	net, err := s.CreateNetwork(ctx, owner, neutron.DesiredNetwork{}, neutron.Marks{})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := s.CreateSubnet(ctx, owner, net.ID, neutron.DesiredSubnet{Item: "a", Pool: &neutron.PoolRef{Name: "pool"}, PrefixLength: 24})
	if err != nil {
		t.Fatal(err)
	}
	if sub.SubnetPoolID != "our-pool" {
		t.Errorf("the subnet came from pool %q, want the project's own our-pool", sub.SubnetPoolID)
	}
}
