package neutronstore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// What a Store holds, adopts, repairs and deletes is only ever its own project's and its
// cluster's: lists keep to the project, and an ID from status is read before it is
// believed.

const (
	ourProject   = "p-ours"
	otherProject = "p-other"
)

// newProjectStore returns a Store of ourProject over d, filled.
func newProjectStore(t *testing.T, d *fake.Driver) *neutronstore.Store {
	t.Helper()
	d.CreateIn(ourProject)
	s := neutronstore.New(d, owner.ClusterID, ourProject)
	if err := s.Fill(context.Background()); err != nil {
		t.Fatal(err)
	}
	d.ClearCalls()
	return s
}

// marked is a network with every mark of the owner, in project.
func marked(id, project string) neutron.Network {
	return neutron.Network{ID: id, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID),
		Tags: owner.Tags(), ProjectID: project}
}

// A network of another project, shared in and carrying the cluster's description and
// the owner's marks, is never filled into the store, adopted or deleted.
func TestStoreKeepsToItsProject(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	d.PutNetwork(marked("shared-in", otherProject))
	d.PutSubnet(neutron.Subnet{ID: "shared-subnet", NetworkID: "shared-in", ProjectID: otherProject,
		Description: neutron.ClusterDescription(owner.ClusterID), CIDR: "10.0.0.0/24"})
	s := newProjectStore(t, d)

	if s.Len() != 0 || len(s.Owners()) != 0 {
		t.Fatalf("the store holds %d networks of owners %v; want none of another project", s.Len(), s.Owners())
	}
	o, err := s.Observe(ctx, owner, neutronstore.Recorded{NetworkID: "shared-in"})
	if err != nil || o.Network != nil {
		t.Errorf("Observe = %+v, %v; want nothing of another project", o, err)
	}
	res, err := s.DeleteOwned(ctx, owner, neutronstore.Recorded{NetworkID: "shared-in"})
	if err != nil || len(res.Deleted) != 0 {
		t.Errorf("DeleteOwned = %+v, %v; want nothing deleted", res, err)
	}
	if !slices.ContainsFunc(d.Networks(), func(n neutron.Network) bool { return n.ID == "shared-in" }) {
		t.Error("the other project's network was deleted")
	}
	for _, call := range d.Calls() {
		if call == "delete network" || call == "tag network" {
			t.Errorf("call %q on another project's network", call)
		}
	}
}

// A status that names a network the owner does not own (a forged or restored status)
// deletes nothing but what the store holds as the owner's, and reports the other.
func TestStoreDeleteOwnedReadsTheRecordedNetworkFirst(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	foreign := neutron.Network{ID: "someone-elses", Name: "db", ProjectID: ourProject}
	d.PutNetwork(foreign)
	otherOwner := marked("other-owners", ourProject)
	otherOwner.Name, otherOwner.Tags = "k8s_ns_b_99999999-2222-3333-4444-555555555555", nil
	d.PutNetwork(otherOwner)
	s := newProjectStore(t, d)
	s.RecordAbsent(owner)
	own, err := s.CreateNetwork(ctx, owner, neutron.DesiredNetwork{}, neutron.Marks{})
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct{ name, recorded string }{
		{"no marks", foreign.ID},
		{"another owner's", otherOwner.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d.ClearCalls()
			res, err := s.DeleteOwned(ctx, owner, neutronstore.Recorded{NetworkID: tc.recorded})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.NotOwned) != 1 || res.NotOwned[0].ID != tc.recorded {
				t.Errorf("NotOwned = %+v; want %s", res.NotOwned, tc.recorded)
			}
			if !slices.ContainsFunc(d.Networks(), func(n neutron.Network) bool { return n.ID == tc.recorded }) {
				t.Errorf("network %s was deleted", tc.recorded)
			}
		})
	}
	if slices.ContainsFunc(d.Networks(), func(n neutron.Network) bool { return n.ID == own.ID }) {
		t.Errorf("the owner's own network %s is still there", own.ID)
	}
}

// A status naming a network made after the store's fill, with the owner's marks, is
// read and deleted: one list by ID, one delete.
func TestStoreDeleteOwnedDeletesARecordedNetworkWithTheMarks(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	s := newProjectStore(t, d)
	d.PutNetwork(marked("made-after-the-fill", ourProject))

	res, err := s.DeleteOwned(ctx, owner, neutronstore.Recorded{NetworkID: "made-after-the-fill"})
	if err != nil || !slices.Equal(res.Deleted, []string{"made-after-the-fill"}) || len(res.NotOwned) != 0 {
		t.Fatalf("DeleteOwned = %+v, %v; want the network deleted", res, err)
	}
	checkCalls(t, d, "list networks", "delete network")
}

// The Store refuses to delete what it does not hold as the owner's, whoever asks.
func TestStoreDeleteNetworkRefusesWhatItDoesNotHold(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	d.PutNetwork(neutron.Network{ID: "unknown", ProjectID: ourProject})
	s := newProjectStore(t, d)
	if err := s.DeleteNetwork(ctx, owner.UID, "unknown"); err == nil {
		t.Error("DeleteNetwork of a network the store does not hold succeeded")
	}
	if err := s.DeleteSubnet(ctx, neutron.Subnet{ID: "s", NetworkID: "unknown"}); err == nil {
		t.Error("DeleteSubnet of a subnet the store does not hold succeeded")
	}
	checkCalls(t, d)
}
