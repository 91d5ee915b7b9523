package neutronstore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// The project's default QoS policy is asked of Neutron each time, never remembered (the
// operator may change it), of the project given or else the store's own; a resolved
// reference carries the resource's name, which a grant by name needs.
func TestDefaultQoSPolicyIsAskedEachTime(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	d.PutDefaultQoSPolicy(neutron.Named{ID: "q-cap", Name: "cap", ProjectID: ourProject}, false)
	d.PutDefaultQoSPolicy(neutron.Named{ID: "q-theirs", Name: "cap", ProjectID: otherProject}, true)
	s := newProjectStore(t, d)
	d.ClearCalls()
	for _, project := range []string{"", ourProject} {
		if id, err := s.DefaultQoSPolicy(ctx, project); err != nil || id != "q-cap" {
			t.Errorf("DefaultQoSPolicy(%q) = %q, %v; want q-cap", project, id, err)
		}
	}
	if id, err := s.DefaultQoSPolicy(ctx, "p-third"); err != nil || id != "" {
		t.Errorf("DefaultQoSPolicy(p-third) = %q, %v; want none", id, err)
	}
	if calls := d.Calls(); !slices.Equal(calls, []string{"list qos/policies", "list qos/policies", "list qos/policies"}) {
		t.Errorf("calls %q; want one lookup each time", calls)
	}
	found, err := s.ResolveNamed(ctx, neutron.QoSPolicies, neutron.Ref{ID: "q-cap"})
	if err != nil || found.ID != "q-cap" || found.Name != "cap" {
		t.Errorf("ResolveNamed(q-cap) = %+v, %v; want q-cap named cap", found, err)
	}
}
