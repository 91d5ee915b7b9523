package networktest

import (
	"context"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// ForeignTag is a tag someone other than the controller put on a network: releasing the
// network keeps it.
const ForeignTag = "team=blue"

// AddTags adds tags to a network of the fake Neutron, as the controller or a user would.
func AddTags(d *neutronfake.Driver, networkID string, tags ...string) {
	for _, n := range d.Networks() {
		if n.ID == networkID {
			SetTags(d, networkID, append(slices.Clone(n.Tags), tags...)...)
		}
	}
}

// SetTags sets the tags of a network of the fake Neutron.
func SetTags(d *neutronfake.Driver, networkID string, tags ...string) {
	if err := d.SetNetworkTags(context.Background(), networkID, tags); err != nil {
		panic(err)
	}
}

// WantReleased checks that Neutron still holds the network and its subnet, named name,
// without the cluster's description, tags or the owner's UID, with the foreign tag kept,
// and that nothing of the cluster's lists finds them any more.
func WantReleased(networkID, subnetID, name string) func(*testing.T, *Fixture, neutron.Owner) {
	return func(t *testing.T, f *Fixture, owner neutron.Owner) {
		t.Helper()
		nets, subnets := f.Neutron.Networks(), f.Neutron.Subnets()
		if len(nets) != 1 || len(subnets) != 1 || nets[0].ID != networkID || subnets[0].ID != subnetID {
			t.Fatalf("Neutron holds networks %+v and subnets %+v, want only %s and %s, kept", nets, subnets, networkID, subnetID)
		}
		n, s := nets[0], subnets[0]
		if n.Name != name || n.Description != "" || !slices.Equal(n.Tags, []string{ForeignTag}) {
			t.Errorf("network name %q, description %q, tags %v; want %q, none, only %q", n.Name, n.Description, n.Tags, name, ForeignTag)
		}
		if s.Name != name || s.Description != "" {
			t.Errorf("subnet name %q, description %q; want %q and none", s.Name, s.Description, name)
		}
		found, foundSubnets, err := neutronstore.ClusterResources(f.Ctx, f.Neutron, owner.ClusterID, "")
		if err != nil || len(found) != 0 || len(foundSubnets) != 0 {
			t.Errorf("the cluster's lists still find %d networks and %d subnets (%v)", len(found), len(foundSubnets), err)
		}
		if byTags, _ := f.Neutron.ListNetworks(f.Ctx, neutron.Filter{Tags: owner.Tags()}); len(byTags) != 0 {
			t.Errorf("the owner's tags still find %d networks", len(byTags))
		}
	}
}
