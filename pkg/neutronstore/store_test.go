package neutronstore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

var owner = neutron.Owner{ClusterID: "c1", Namespace: "ns", Name: "a", UID: "11111111-2222-3333-4444-555555555555"}

var subnet = neutron.DesiredSubnet{CIDR: "10.0.0.0/24", IPVersion: 4}

// newStore returns a filled Store over an empty fake Neutron, and the fake with its calls
// forgotten.
func newStore(t *testing.T) (*neutronstore.Store, *fake.Driver) {
	t.Helper()
	d := fake.New()
	s := neutronstore.New(d, owner.ClusterID, "")
	if err := s.Fill(context.Background()); err != nil {
		t.Fatal(err)
	}
	d.ClearCalls()
	return s, d
}

// newStoreWithNetwork is newStore after the Store created the owner's network.
func newStoreWithNetwork(t *testing.T) (*neutronstore.Store, *fake.Driver, neutron.Network) {
	t.Helper()
	s, d := newStore(t)
	s.RecordAbsent(owner)
	net, err := s.CreateNetwork(context.Background(), owner, neutron.DesiredNetwork{}, neutron.Marks{})
	if err != nil {
		t.Fatal(err)
	}
	return s, d, net
}

func checkCalls(t *testing.T, d *fake.Driver, want ...string) {
	t.Helper()
	if got := d.Calls(); !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	d.ClearCalls()
}

// What the Store made itself it answers for without asking Neutron.
func TestStoreKnowsWhatItMade(t *testing.T) {
	ctx := context.Background()
	s, d := newStore(t)
	s.RecordAbsent(owner)

	o, err := s.Observe(ctx, owner, neutronstore.Recorded{})
	if err != nil || o.Network != nil {
		t.Fatalf("Observe before the create = %+v, %v; want nothing", o, err)
	}
	net, err := s.CreateNetwork(ctx, owner, neutron.DesiredNetwork{}, neutron.Marks{})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := s.CreateSubnet(ctx, owner, net.ID, subnet)
	if err != nil {
		t.Fatal(err)
	}
	checkCalls(t, d, "create network", "tag network", "create subnet")

	o, err = s.Observe(ctx, owner, neutronstore.Recorded{NetworkID: net.ID, Subnets: map[string]string{"": sub.ID}})
	if err != nil || o.Network == nil || o.Network.ID != net.ID || !owner.HasTags(o.Network.Tags) || len(o.Subnets) == 0 || o.Subnets[""].ID != sub.ID || o.Adopted {
		t.Errorf("Observe = %+v, %v; want the tagged network %s with subnet %s", o, err, net.ID, sub.ID)
	}
	if c := s.Cached(owner, neutronstore.Recorded{}); c.Network == nil || len(c.Subnets) == 0 || c.Subnets[""].ID != sub.ID {
		t.Errorf("Cached = %+v, want the same network and subnet", c)
	}
	checkCalls(t, d)
}

// A create Neutron may have carried out although its reply was lost leaves the Store
// unsure: the next Observe looks the network up by name, and finishes it by tagging it.
func TestStoreLostCreateReplyMakesObserveLookUp(t *testing.T) {
	ctx := context.Background()
	s, d := newStore(t)
	s.RecordAbsent(owner)
	d.LoseReply("create network", &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Code: 502})
	if _, err := s.CreateNetwork(ctx, owner, neutron.DesiredNetwork{}, neutron.Marks{}); err == nil {
		t.Fatal("CreateNetwork succeeded despite the lost reply")
	}
	d.ClearCalls()

	o, err := s.Observe(ctx, owner, neutronstore.Recorded{})
	if err != nil || o.Network == nil || !o.Adopted || !owner.HasTags(o.Network.Tags) || len(o.Subnets) != 0 {
		t.Fatalf("Observe = %+v, %v; want the network found, tagged and adopted, no subnet", o, err)
	}
	checkCalls(t, d, "list networks", "tag network", "list subnets")
	if _, err := s.Observe(ctx, owner, neutronstore.Recorded{}); err != nil {
		t.Fatal(err)
	}
	checkCalls(t, d)
}

// The same for a subnet: the network's subnets are listed again, so the subnet made is found
// instead of created twice.
func TestStoreLostSubnetReplyMakesObserveListSubnets(t *testing.T) {
	ctx := context.Background()
	s, d, net := newStoreWithNetwork(t)
	d.LoseReply("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindUnavailable})
	if _, err := s.CreateSubnet(ctx, owner, net.ID, subnet); err == nil {
		t.Fatal("CreateSubnet succeeded despite the lost reply")
	}
	d.ClearCalls()

	o, err := s.Observe(ctx, owner, neutronstore.Recorded{NetworkID: net.ID})
	if err != nil || len(o.Subnets) == 0 || o.Subnets[""].CIDR != subnet.CIDR {
		t.Fatalf("Observe = %+v, %v; want the subnet Neutron made", o, err)
	}
	checkCalls(t, d, "list subnets")
}

// A subnet create that lands after the Store listed (sent by a process since killed, or a
// deposed leader) makes Neutron refuse the Store's own as overlapping. That refusal is a
// retryable conflict, not a rejected spec, and the next Observe lists the network's
// subnets again and finds the subnet.
func TestStoreOverlappingSubnetCreateIsAConflict(t *testing.T) {
	ctx := context.Background()
	s, d, net := newStoreWithNetwork(t)
	landed, err := d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: net.ID, Name: owner.ResourceName(),
		Description: neutron.ClusterDescription(owner.ClusterID), CIDR: subnet.CIDR, IPVersion: subnet.IPVersion})
	if err != nil {
		t.Fatal(err)
	}
	d.ClearCalls()

	if _, err := s.CreateSubnet(ctx, owner, net.ID, subnet); neutron.KindOf(err) != neutron.KindConflict {
		t.Fatalf("CreateSubnet over an existing subnet = %v (kind %s), want a conflict", err, neutron.KindOf(err))
	}
	o, err := s.Observe(ctx, owner, neutronstore.Recorded{NetworkID: net.ID})
	if err != nil || len(o.Subnets) == 0 || o.Subnets[""].ID != landed.ID {
		t.Fatalf("Observe = %+v, %v; want the subnet that landed, %s", o, err, landed.ID)
	}
	checkCalls(t, d, "create subnet", "list subnets")
}

// A network deleted under the Store (a 404 on a create on it) is forgotten, so the next
// Observe looks again and finds none.
func TestStoreForgetsANetworkFoundGone(t *testing.T) {
	ctx := context.Background()
	s, d, net := newStoreWithNetwork(t)
	if err := d.DeleteNetwork(ctx, net.ID); err != nil { // by hand, not through the Store
		t.Fatal(err)
	}
	if _, err := s.CreateSubnet(ctx, owner, net.ID, subnet); !neutron.IsNotFound(err) {
		t.Fatalf("CreateSubnet on a deleted network: %v, want not found", err)
	}
	d.ClearCalls()

	o, err := s.Observe(ctx, owner, neutronstore.Recorded{NetworkID: net.ID})
	if err != nil || o.Network != nil {
		t.Fatalf("Observe = %+v, %v; want no network", o, err)
	}
	checkCalls(t, d, "list networks")
}

// Deleting an owner looks it up by name only when the Store cannot prove it has nothing,
// and proves it afterwards.
func TestStoreDeleteOwned(t *testing.T) {
	ctx := context.Background()
	s, d := newStore(t)
	d.PutNetwork(neutron.Network{ID: "made-after-the-fill", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID)})

	res, err := s.DeleteOwned(ctx, owner, neutronstore.Recorded{})
	if err != nil || !slices.Equal(res.Deleted, []string{"made-after-the-fill"}) {
		t.Fatalf("DeleteOwned = %+v, %v; want the network found by name", res, err)
	}
	checkCalls(t, d, "list networks", "delete network")

	if res, err := s.DeleteOwned(ctx, owner, neutronstore.Recorded{}); err != nil || len(res.Deleted) != 0 {
		t.Errorf("second DeleteOwned = %+v, %v; want nothing", res, err)
	}
	checkCalls(t, d)
}

// Of an owner's duplicates the one status names is kept, else the oldest.
func TestStoreObserveKeepsTheRecordedNetwork(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	for _, id := range []string{"n1", "n2"} {
		d.PutNetwork(neutron.Network{ID: id, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags()})
	}
	s := neutronstore.New(d, owner.ClusterID, "")
	if err := s.Fill(ctx); err != nil {
		t.Fatal(err)
	}
	o, err := s.Observe(ctx, owner, neutronstore.Recorded{NetworkID: "n2"})
	if err != nil || o.Network == nil || o.Network.ID != "n2" || len(o.DuplicateNetworks) != 1 || o.DuplicateNetworks[0].ID != "n1" {
		t.Errorf("Observe = %+v, %v; want n2 kept and n1 a duplicate", o, err)
	}
}
