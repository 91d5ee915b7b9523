package neutronstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// A released network's name is <namespace>/<name>, without the owner's UID, even when
// the owner's names were long enough to be shortened; a name someone changed in Neutron
// stays as it is.
func TestReleaseRenamesWithoutTheOwnersUID(t *testing.T) {
	long := neutron.Owner{ClusterID: "c1", Namespace: strings.Repeat("n", 63), Name: strings.Repeat("a", 253), UID: owner.UID}
	for _, tc := range []struct {
		name      string
		owner     neutron.Owner
		rename    string // set in Neutron by someone before the release, if not empty
		wantStart string
	}{
		{"short names", owner, "", "ns/a"},
		{"names shortened with a hash", long, "", long.Namespace + "/aaaa"},
		{"renamed in Neutron", owner, "kept-by-hand", "kept-by-hand"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s, d := newStore(t)
			s.RecordAbsent(tc.owner)
			net, err := s.CreateNetwork(ctx, tc.owner, neutron.DesiredNetwork{}, neutron.Marks{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.rename != "" {
				if net, err = d.RelabelNetwork(ctx, net.ID, neutron.Label{Name: tc.rename, Description: net.Description}); err != nil {
					t.Fatal(err)
				}
				if err := s.Fill(ctx); err != nil { // as the next resync would
					t.Fatal(err)
				}
			}
			released, err := s.ReleaseOwned(ctx, tc.owner, neutronstore.Recorded{NetworkID: net.ID})
			if err != nil || len(released) != 1 {
				t.Fatalf("ReleaseOwned = %+v, %v; want one network", released, err)
			}
			got := d.Networks()[0]
			if !strings.HasPrefix(got.Name, tc.wantStart) || strings.Contains(got.Name, tc.owner.UID) || len(got.Name) > neutron.MaxFieldLength {
				t.Errorf("released name %q (%d characters), want it to start %q, without the UID, within %d", got.Name, len(got.Name), tc.wantStart, neutron.MaxFieldLength)
			}
			if got.Description != "" || len(got.Tags) != 0 {
				t.Errorf("released network keeps description %q and tags %v", got.Description, got.Tags)
			}
			if _, ok := neutron.OwnerUID(got); ok {
				t.Errorf("the owner is still read from released network %+v", got)
			}
		})
	}
}

// The subnets of a released list-form network keep their item in their name,
// <namespace>/<name>/<item>, without the owner's UID; the one-subnet form's is
// <namespace>/<name>.
func TestReleaseRenamesSubnetsOfEachItem(t *testing.T) {
	ctx := context.Background()
	s, d := newStore(t)
	s.RecordAbsent(owner)
	net, err := s.CreateNetwork(ctx, owner, neutron.DesiredNetwork{}, neutron.Marks{})
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range []neutron.DesiredSubnet{{CIDR: "10.0.0.0/24", IPVersion: 4}, {Item: "v6", CIDR: "2001:db8::/64", IPVersion: 6}} {
		if _, err := s.CreateSubnet(ctx, owner, net.ID, item); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ReleaseOwned(ctx, owner, neutronstore.Recorded{NetworkID: net.ID}); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, sub := range d.Subnets() {
		names[sub.CIDR] = sub.Name
		if strings.Contains(sub.Name, owner.UID) || sub.Description != "" {
			t.Errorf("released subnet %+v keeps a mark of the cluster", sub)
		}
	}
	if names["10.0.0.0/24"] != "ns/a" || names["2001:db8::/64"] != "ns/a/v6" {
		t.Errorf("released subnets are named %v, want ns/a and ns/a/v6", names)
	}
}
