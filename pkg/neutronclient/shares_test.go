package neutronclient

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The policies that share networks are listed by the project that made them and by
// network, with only the fields of neutron.RBACPolicy, and never any other kind of policy.
func TestListNetworkShares(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusOK, `{"rbac_policies": [{"id": "r1", "object_id": "n1",
		"target_tenant": "team-b", "project_id": "mine"}]}`)
	policies, err := c.ListNetworkShares(context.Background(), neutron.Filter{ProjectID: "mine", NetworkIDs: []string{"n1", "n2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []neutron.RBACPolicy{{ID: "r1", ObjectID: "n1", TargetProject: "team-b", ProjectID: "mine"}}
	if !reflect.DeepEqual(policies, want) {
		t.Errorf("policies = %+v, want %+v", policies, want)
	}
	wantRequests(t, *got, request{"GET", "/v2.0/rbac-policies?object_type=network&action=access_as_shared&project_id=mine&object_id=n1&object_id=n2" +
		"&fields=id&fields=object_id&fields=target_tenant&fields=project_id", ""})
}

// A share is one POST of the policy; its delete treats 404 as done.
func TestShareAndUnshare(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusCreated, `{"rbac_policy": {"id": "r1", "object_id": "n1", "target_tenant": "team-b", "project_id": "mine"}}`)
	p, err := c.ShareNetwork(context.Background(), neutron.NewShareRequest("n1", "team-b"))
	if err != nil || p.ID != "r1" || p.TargetProject != "team-b" {
		t.Fatalf("ShareNetwork = %+v, %v; want policy r1 for team-b", p, err)
	}
	wantRequests(t, *got, request{"POST", "/v2.0/rbac-policies",
		`{"rbac_policy":{"object_type":"network","object_id":"n1","action":"access_as_shared","target_tenant":"team-b"}}`})

	gone, _ := recordingNeutron(t, http.StatusNotFound, `{"NeutronError": {"type": "RbacPolicyNotFound", "message": "not found"}}`)
	if err := gone.DeleteRBACPolicy(context.Background(), "r1"); err != nil {
		t.Errorf("deleting a policy already gone: %v, want nil", err)
	}
}
