package fake

import (
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// As Neutron's qos-default: a network created without a QoS policy gets its project's
// default, one created with a policy keeps it, and a PUT of null leaves a network without
// any, default or not. Another project's default is not the project's.
func TestDefaultQoSPolicyAsNeutronAppliesIt(t *testing.T) {
	d := New()
	d.CreateIn("p-own")
	d.PutDefaultQoSPolicy(neutron.Named{ID: "q-cap", Name: "cap", ProjectID: "p-own"}, false)
	d.PutDefaultQoSPolicy(neutron.Named{ID: "q-theirs", Name: "cap", ProjectID: "p-other"}, true)
	d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-gold", Name: "gold", ProjectID: "p-own"}, false)

	plain, err := d.CreateNetwork(ctx, neutron.NetworkRequest{Name: "plain"})
	if err != nil || plain.QoSPolicyID == nil || *plain.QoSPolicyID != "q-cap" {
		t.Fatalf("created without a policy: %+v, %v; want the project's default q-cap", plain, err)
	}
	gold := &neutron.Reference{Collection: neutron.QoSPolicies, Ref: neutron.Ref{Name: "gold"}, ResolvedID: "q-gold"}
	named, err := d.CreateNetwork(ctx, neutron.NetworkRequest{Name: "gold", NetworkAttrs: neutron.NetworkAttrs{QoSPolicy: gold}})
	if err != nil || named.QoSPolicyID == nil || *named.QoSPolicyID != "q-gold" {
		t.Fatalf("created with gold: %+v, %v; want q-gold", named, err)
	}
	cleared, err := d.UpdateNetwork(ctx, plain.ID, neutron.NetworkAttrs{QoSPolicy: &neutron.Reference{Collection: neutron.QoSPolicies}})
	if err != nil || cleared.QoSPolicyID != nil {
		t.Errorf("PUT null: %+v, %v; want no policy, the default not applied again", cleared, err)
	}
	for project, want := range map[string]string{"p-own": "q-cap", "p-third": ""} {
		if got, err := d.DefaultQoSPolicy(ctx, project); err != nil || got != want {
			t.Errorf("DefaultQoSPolicy(%s) = %q, %v; want %q", project, got, err, want)
		}
	}
}
