package neutronstore

import (
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func owned(id, uid string, age time.Duration) neutron.Network {
	return neutron.Network{ID: id, Tags: []string{neutron.ClusterTag("c"), ownerTag(uid)}, CreatedAt: time.Now().Add(-age)}
}

// ownerTag is the tag that names a network's owner, the second of neutron.Owner.Tags.
func ownerTag(uid string) string { return "k8s-uid=" + uid }

func networkIDs(nets []neutron.Network) []string {
	var out []string
	for _, n := range nets {
		out = append(out, n.ID)
	}
	return out
}

func TestRefillIndexesNetworksByOwnerAndSubnetsByNetwork(t *testing.T) {
	x := newIndex()
	x.Refill(x.Revision(),
		[]neutron.Network{owned("n1", "u1", time.Hour), owned("n2", "u2", time.Hour), owned("dup", "u1", 2*time.Hour), {ID: "untagged"}},
		[]neutron.Subnet{{ID: "s1", NetworkID: "n1"}, {ID: "stray", NetworkID: "not-listed"}})

	if got := networkIDs(x.Networks("u1")); !slices.Equal(got, []string{"dup", "n1"}) {
		t.Errorf("networks of u1 = %v, want [dup n1], oldest first", got)
	}
	if subs, known := x.Subnets("n1"); !known || len(subs) != 1 || subs[0].ID != "s1" {
		t.Errorf("subnets of n1 = %v (known %v), want [s1], known", subs, known)
	}
	if subs, known := x.Subnets("n2"); !known || len(subs) != 0 {
		t.Errorf("subnets of n2 = %v (known %v), want none, known", subs, known)
	}
	if got := x.Owners(); !slices.Equal(got, []string{"u1", "u2"}) {
		t.Errorf("owners = %v", got)
	}
	if x.Len() != 3 {
		t.Errorf("Len = %d, want 3 (the untagged network is nobody's)", x.Len())
	}
}

func TestRefillKeepsChangesMadeWhileListing(t *testing.T) {
	x := newIndex()
	x.Refill(x.Revision(), []neutron.Network{owned("gone", "u1", time.Hour)}, nil)

	since := x.Revision()
	// While the lists are in flight: one network is created, another deleted.
	x.PutNetwork("u2", owned("new", "u2", 0), true)
	x.RemoveNetwork("gone")
	x.Refill(since, []neutron.Network{owned("gone", "u1", time.Hour)}, nil)

	if got := networkIDs(x.Networks("u2")); !slices.Equal(got, []string{"new"}) {
		t.Errorf("networks of u2 = %v, want the one created during the lists", got)
	}
	if got := x.Networks("u1"); len(got) != 0 {
		t.Errorf("networks of u1 = %v, want none: deleted during the lists", networkIDs(got))
	}

	// The next refill, begun after those changes, is believed.
	x.Refill(x.Revision(), []neutron.Network{owned("gone", "u1", time.Hour)}, nil)
	if got := networkIDs(x.Networks("u1")); !slices.Equal(got, []string{"gone"}) {
		t.Errorf("networks of u1 = %v after a later refill, want [gone]", got)
	}
	if got := x.Networks("u2"); len(got) != 0 {
		t.Errorf("networks of u2 = %v after a later refill that does not list it, want none", networkIDs(got))
	}
}

func TestAbsenceIsProvenUntilAnUncertainCreate(t *testing.T) {
	x := newIndex()
	if x.Absent("u1") {
		t.Fatal("an unknown owner counts as absent")
	}
	x.SetAbsent("u1")
	x.Refill(x.Revision(), nil, nil)
	if !x.Absent("u1") {
		t.Error("a refill that lists nothing for the owner lost its proven absence")
	}
	x.ForgetAbsence("u1")
	if x.Absent("u1") {
		t.Error("absent after a create with an unknown outcome")
	}
	x.SetAbsent("u1")
	x.PutNetwork("u1", owned("n1", "u1", 0), true)
	if x.Absent("u1") {
		t.Error("absent while it has a network")
	}
}

func TestSubnetKnowledge(t *testing.T) {
	x := newIndex()
	x.PutNetwork("u1", owned("n1", "u1", 0), true)
	x.PutSubnet(neutron.Subnet{ID: "s1", NetworkID: "n1"})
	if subs, known := x.Subnets("n1"); !known || len(subs) != 1 {
		t.Fatalf("subnets = %v (known %v) after a create", subs, known)
	}
	x.ForgetSubnets("n1")
	if _, known := x.Subnets("n1"); known {
		t.Error("subnets known after a create with an unknown outcome")
	}
	x.SetSubnets("n1", []neutron.Subnet{{ID: "s1", NetworkID: "n1"}, {ID: "s2", NetworkID: "n1"}})
	if subs, known := x.Subnets("n1"); !known || len(subs) != 2 {
		t.Errorf("subnets = %v (known %v) after listing", subs, known)
	}
	// Tagging an adopted network keeps what is known of its subnets.
	x.PutNetwork("u1", owned("n1", "u1", 0), false)
	if _, known := x.Subnets("n1"); !known {
		t.Error("re-putting a network forgot its subnets")
	}
	x.RemoveNetwork("n1")
	if _, known := x.Subnets("n1"); known {
		t.Error("subnets known for a removed network")
	}
}

// fresh returns a copy of s in memory of its own, as a decoded reply holds it.
func fresh(s string) string { return string([]byte(s)) }

func sameMemory(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestIndexKeepsOneCopyOfRepeatedStrings(t *testing.T) {
	description, tag := neutron.ClusterDescription("c"), neutron.ClusterTag("c")
	x := newIndex(description, tag, neutron.RetainTag)
	n := neutron.Network{ID: "n1", Name: "k8s_team_web_u1", Description: fresh(description), Tags: []string{fresh(tag), ownerTag("u1"), fresh(neutron.RetainTag)}}
	sub := neutron.Subnet{ID: "s1", NetworkID: fresh("n1"), Name: fresh(n.Name), Description: fresh(description), Tags: []string{fresh(tag)}, CIDR: "10.0.0.0/24"}
	x.Refill(x.Revision(), []neutron.Network{n}, []neutron.Subnet{sub})

	got := x.Networks("u1")[0]
	gotSubs, _ := x.Subnets("n1")
	if !equalNetwork(got, n) || len(gotSubs) != 1 || !equalSubnet(gotSubs[0], sub) {
		t.Fatalf("index changed values: network %+v, subnets %+v", got, gotSubs)
	}
	s := gotSubs[0]
	for what, pair := range map[string][2]string{
		"network description": {got.Description, description}, "cluster tag": {got.Tags[0], tag}, "retain tag": {got.Tags[2], neutron.RetainTag},
		"subnet network ID": {s.NetworkID, got.ID}, "subnet name": {s.Name, got.Name}, "subnet description": {s.Description, description},
		"subnet tag": {s.Tags[0], tag},
	} {
		if !sameMemory(pair[0], pair[1]) {
			t.Errorf("%s is a copy of its own", what)
		}
	}
	if sameMemory(n.Tags[0], tag) {
		t.Error("the caller's tags were rewritten")
	}

	// Later writes share too.
	x.PutSubnet(neutron.Subnet{ID: "s2", NetworkID: fresh("n1"), Name: fresh(n.Name), CreatedAt: time.Now()})
	got = x.Networks("u1")[0]
	gotSubs, _ = x.Subnets("n1")
	if len(gotSubs) != 2 || gotSubs[1].ID != "s2" || !sameMemory(gotSubs[1].Name, got.Name) {
		t.Errorf("after PutSubnet: subnets %+v, want s1 then s2 sharing the network's name", gotSubs)
	}
}

func equalNetwork(a, b neutron.Network) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Description == b.Description && slices.Equal(a.Tags, b.Tags)
}

func equalSubnet(a, b neutron.Subnet) bool {
	return a.ID == b.ID && a.NetworkID == b.NetworkID && a.Name == b.Name && a.Description == b.Description &&
		slices.Equal(a.Tags, b.Tags) && a.CIDR == b.CIDR
}

// Every key of a network points into its current record: a change makes a new record,
// and nothing may keep the old one.
func TestIndexKeepsNoOlderRecord(t *testing.T) {
	n, subnets, shared := benchNetwork()
	x := newIndex(shared...)
	uid := "2e89393f-c031-4978-9caa-d7aa0a327f58"
	untagged := n
	untagged.Tags = nil
	x.PutNetwork(fresh(uid), untagged, true) // as created: no tags yet
	x.PutNetwork(fresh(uid), n, false)       // tagged
	x.PutSubnet(subnets[0])
	x.PutSubnet(neutron.Subnet{ID: "second", NetworkID: fresh(n.ID), CIDR: "10.1.0.0/24", CreatedAt: time.Now()})
	x.RemoveSubnet(n.ID, "second")
	x.SetSubnets(n.ID, subnets)

	in := x.networks[n.ID]
	if got, _ := x.Subnets(n.ID); len(got) != 1 || got[0].ID != subnets[0].ID {
		t.Fatalf("subnets %+v, want the one subnet", got)
	}
	for id := range x.networks {
		if !inRecord(in.rec, id) {
			t.Error("the networks map's key is not the record's")
		}
	}
	for owner, st := range x.owners {
		if !inRecord(in.rec, owner) || len(st.networkIDs) != 1 || !inRecord(in.rec, st.networkIDs[0]) {
			t.Errorf("the owner's key or network IDs are not the record's: %q %q", owner, st.networkIDs)
		}
	}
	if !inRecord(in.rec, in.owner) {
		t.Error("the network's owner is not the record's")
	}
}
