package grants

import (
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// allow.qosPolicies adds up across the identities of the controller's own cloud, is a
// delegating identity's own in its project, and allows a policy by the id or the name it
// lists, never by the other: a policy of another id that bears a granted id's name is not
// granted.
func TestQoSPoliciesAreGrantedByIDOrByNameAlone(t *testing.T) {
	team := map[string]string{"team": "a"}
	const goldID = "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"
	book, _, _, _ := startBook(t, nil, []*samplecrdv1.ClusterIdentity{
		identity("by-id", team, false, samplecrdv1.IdentityAllow{QoSPolicies: []samplecrdv1.NeutronRef{{ID: goldID}}}),
		identity("by-name", team, false, samplecrdv1.IdentityAllow{QoSPolicies: []samplecrdv1.NeutronRef{{Name: "silver"}}}),
		identity("delegated", team, true, samplecrdv1.IdentityAllow{QoSPolicies: []samplecrdv1.NeutronRef{{Name: "bronze"}}}),
	}, namespace("a", team), namespace("b", nil))

	own := ownCloudOf(t, book, "a")
	for _, tc := range []struct {
		id, name string
		want     bool
	}{
		{goldID, "anything", true},
		{"5F8E7A10-3C2B-4D1E-9F60-1A2B3C4D5E6F", "", true},
		{"other-id", "silver", true},
		{"other-id", "gold", false},
		{"silver", "other-name", false},
		{"bronze-id", "bronze", false},
	} {
		if got := own.AllowsQoSPolicy(tc.id, tc.name); got != tc.want {
			t.Errorf("own cloud of namespace a: AllowsQoSPolicy(%q, %q) = %v, want %v (grants %+v)", tc.id, tc.name, got, tc.want, own.QoSPolicies)
		}
	}
	if none := ownCloudOf(t, book, "b"); none.AllowsQoSPolicy(goldID, "silver") {
		t.Errorf("namespace b, selected by no identity, may set QoS policies %+v; want none", none.QoSPolicies)
	}
	d, err := book.Delegation("a", "delegated")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Powers.AllowsQoSPolicy("bronze-id", "bronze") || d.Powers.AllowsQoSPolicy(goldID, "silver") {
		t.Errorf("the delegated project allows QoS policies %+v; want bronze alone, nothing of the own cloud's", d.Powers.QoSPolicies)
	}
	if !Unfenced.AllowsQoSPolicy("any", "any") {
		t.Error("a project of the namespace's own Secret refuses a QoS policy; want every power its own")
	}
}
