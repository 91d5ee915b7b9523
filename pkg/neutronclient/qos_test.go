package neutronclient

import (
	"context"
	"net/http"
	"testing"
)

// The project's default QoS policy is read from the list of the project's own policies,
// by the is_default flag (not a filter a Neutron without qos-default takes); a policy
// marked default in another project is not this project's.
func TestDefaultQoSPolicy(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusOK, `{"policies": [
		{"id": "q-plain", "project_id": "p1", "is_default": false},
		{"id": "q-theirs", "project_id": "p2", "is_default": true},
		{"id": "q-cap", "project_id": "p1", "is_default": true}]}`)
	id, err := c.DefaultQoSPolicy(context.Background(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	if id != "q-cap" {
		t.Errorf("default = %q, want q-cap", id)
	}
	wantRequests(t, *got, request{"GET", "/v2.0/qos/policies?project_id=p1&fields=id&fields=project_id&fields=is_default", ""})

	none, _ := recordingNeutron(t, http.StatusOK, `{"policies": [{"id": "q-plain", "project_id": "p1"}]}`)
	if id, err := none.DefaultQoSPolicy(context.Background(), "p1"); err != nil || id != "" {
		t.Errorf("without a default (or qos-default): %q, %v; want none", id, err)
	}
}
