package neutron_test

import (
	"context"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
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
			net, err := s.CreateNetwork(ctx, tc.owner, neutron.DesiredNetwork{})
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
			released, err := s.ReleaseOwned(ctx, tc.owner, neutron.Recorded{NetworkID: net.ID})
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
