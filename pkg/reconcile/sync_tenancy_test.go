package reconcile_test

import (
	"slices"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// tenancyCases are Networks whose credentials cannot be used: no Neutron call is made
// for them. The Fixture's own cloud is a Neutron without authentication (project "").
func tenancyCases() []syncCase {
	return []syncCase{{
		name:       "Secret missing: CredentialsSecretNotFound, no finalizer, nothing in Neutron",
		object:     withCredentials(NewNetwork("nosecret", "10.30.0.0/24", ""), "openstack"),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound, "Secret default/openstack does not exist")(t, got)
			if len(got.Finalizers) != 0 {
				t.Errorf("finalizers %v on a Network that never reached Neutron", got.Finalizers)
			}
		},
	}, {
		name: "credentials now lead to another project: CredentialsProjectChanged, no Neutron call",
		object: func() *samplecrdv1.Network {
			n := RealizedNetwork("moved", "10.31.0.0/24", "")
			n.Status.ProjectID = "project-before"
			return n
		}(),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.31.0.0/24", "10.31.0.1")
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsProjectChanged"},
		wantObject: WantNotReady(samplecrdv1.ReasonCredentialsProjectChanged, "resources are in project project-before (status.projectID)"),
	}, {
		name: "credentials now lead to another region: CredentialsRegionChanged, no Neutron call",
		object: func() *samplecrdv1.Network {
			n := RealizedNetwork("regionmoved", "10.31.1.0/24", "")
			n.Status.Region = "RegionOne"
			return n
		}(),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.31.1.0/24", "10.31.1.1")
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsRegionChanged"},
		wantObject: WantNotReady(samplecrdv1.ReasonCredentialsRegionChanged, `resources are in region "RegionOne" (status.region)`),
	}, {
		name: "deletion with status naming a network the cluster did not make: only the Network's own is deleted",
		object: func() *samplecrdv1.Network {
			n := Deleting(RealizedNetwork("forged", "10.31.2.0/24", ""))
			n.Status.NetworkID = "someone-elses"
			return n
		}(),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.31.2.0/24", "10.31.2.1")
			d.PutNetwork(neutron.Network{ID: "someone-elses", Name: "database"})
		},
		want:       succeeds,
		wantWrites: []string{writeStatus, writeFinalizer},
		wantCalls:  []string{"list networks", "delete network"},
		wantEvents: []string{"Warning NeutronResourceNotOwned", "Normal NeutronDeleted"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			var ids []string
			for _, n := range f.Neutron.Networks() {
				ids = append(ids, n.ID)
			}
			if !slices.Equal(ids, []string{"someone-elses"}) {
				t.Errorf("Neutron networks %q, want only someone-elses left", ids)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNeutronResourceNotOwned, "status named Neutron network someone-elses")(t, got)
			if slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer kept")
			}
		},
	}, {
		name:       "deletion of a Network whose credentials never worked: finalizer removed, no credentials needed",
		object:     Deleting(WithFinalizer(withCredentials(NewNetwork("neverworked", "10.32.0.0/24", ""), "gone"))),
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer kept")
			}
		},
	}, {
		name: "deletion of a Network with a project whose Secret is gone: finalizer kept until it is back",
		object: func() *samplecrdv1.Network {
			n := Deleting(withCredentials(RealizedNetwork("orphaned", "10.33.0.0/24", ""), "gone"))
			n.Status.ProjectID = "project-a"
			return n
		}(),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound, "Secret default/gone")(t, got)
			if !slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer removed while the Neutron resources could not be deleted")
			}
		},
	}}
}

func withCredentials(n *samplecrdv1.Network, secret string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{SecretName: secret, CloudName: "openstack"}
	return n
}
