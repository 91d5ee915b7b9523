package reconcile_test

import (
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// qosCases set, change and remove the network's QoS policy (spec.qosPolicy), repair it,
// and refuse a name that matches no policy, or several, before any write. A removal gives
// the network what Neutron gives a new one: the default policy of the network's project,
// looked up then, or none; never a null over the default.
func qosCases() []syncCase {
	policies := func(d *neutronfake.Driver) {
		d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-gold", Name: "gold", ProjectID: "p-other"}, true)
		d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-silver", Name: "silver", ProjectID: "p-other"}, true)
		d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-lead-1", Name: "lead", ProjectID: "p-other"}, true)
		d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-lead-2", Name: "lead", ProjectID: "p-third"}, true)
	}
	// realizedWithQoS is a Network realized with the policy id in Neutron and in status.
	realizedWithQoS := func(name, cidr string, spec *samplecrdv1.NeutronRef, inNeutron string) (*samplecrdv1.Network, func(*neutronfake.Driver, neutron.Owner)) {
		n := WithGeneration(withQoS(RealizedNetwork(name, cidr, ""), spec), 2)
		n.Status.QoSPolicyID = "q-gold"
		return n, func(d *neutronfake.Driver, owner neutron.Owner) {
			policies(d)
			PutRealized(d, owner, cidr, strings.TrimSuffix(cidr, "0/24")+"1")
			net := d.Networks()[0]
			net.QoSPolicyID = &inNeutron
			d.PutNetwork(net)
		}
	}
	changed, changedNeutron := realizedWithQoS("qos-changed", "10.41.0.0/24", &samplecrdv1.NeutronRef{Name: "silver"}, "q-gold")
	removed, removedNeutron := realizedWithQoS("qos-removed", "10.42.0.0/24", nil, "q-gold")
	drifted, driftedNeutron := realizedWithQoS("qos-drifted", "10.43.0.0/24", &samplecrdv1.NeutronRef{Name: "gold"}, "q-silver")
	removedToDefault, removedToDefaultNeutron := realizedWithQoS("qos-removed-default", "10.46.0.0/24", nil, "q-gold")
	removedNoDefault, removedNoDefaultNeutron := realizedWithQoS("qos-removed-no-default", "10.47.0.0/24", nil, "q-gold")
	return []syncCase{{
		name:        "new Network with a QoS policy by name: one lookup, created with it",
		object:      withQoS(NewNetwork("qos-new", "10.40.0.0/24", ""), &samplecrdv1.NeutronRef{Name: "gold"}),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { policies(d) },
		want:        succeeds,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantCalls:   []string{"list qos/policies", "create network", "tag network", "create subnet"},
		wantEvents:  []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: wantNetworkQoS("q-gold"),
		wantObject:  wantReadyWithQoS("q-gold"),
	}, {
		name:        "QoS policy changed in spec: one lookup, one PUT of the network",
		object:      changed,
		neutron:     changedNeutron,
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantNetworkQoS("q-silver"),
		wantObject:  wantReadyWithQoS("q-silver"),
	}, {
		name:       "QoS policy removed from spec: one PUT setting none, status forgets it",
		object:     removed,
		neutron:    removedNeutron,
		want:       succeeds,
		wantWrites: []string{writeStatus},
		// The lookup of the project's default, which it has none of.
		wantCalls:   []string{"list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantQoSSent("", `{"qos_policy_id":null}`),
		wantObject:  wantReadyWithQoS(""),
	}, {
		name:   "QoS policy removed from spec, the project has a default policy: the default's ID sent, never null",
		object: removedToDefault,
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			removedToDefaultNeutron(d, owner)
			networkInProject(d, "p-own")
			d.PutDefaultQoSPolicy(neutron.Named{ID: "q-cap", Name: "bandwidth-cap", ProjectID: "p-own"}, false)
		},
		want: succeeds,
		// The next pass leaves the default alone: the policy is the project's, not the spec's.
		retry:       succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantQoSSent("q-cap", `{"qos_policy_id":"q-cap"}`),
		wantObject:  wantReadyWithQoS(""),
	}, {
		name:   "QoS policy removed from spec, no default in the project (another project's shared default is not its): null sent",
		object: removedNoDefault,
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			removedNoDefaultNeutron(d, owner)
			networkInProject(d, "p-own")
			d.PutDefaultQoSPolicy(neutron.Named{ID: "q-theirs", Name: "their-cap", ProjectID: "p-other"}, true)
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantQoSSent("", `{"qos_policy_id":null}`),
		wantObject:  wantReadyWithQoS(""),
	}, {
		name:        "QoS policy changed in Neutron by hand: put back",
		object:      drifted,
		neutron:     driftedNeutron,
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantNetworkQoS("q-gold"),
		wantObject:  wantReadyWithQoS("q-gold"),
	}, {
		name:       "QoS policy name matching none: ReferenceNotFound, nothing created",
		object:     withQoS(NewNetwork("qos-missing", "10.44.0.0/24", ""), &samplecrdv1.NeutronRef{Name: "platinum"}),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { policies(d) },
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list qos/policies"},
		wantEvents: []string{"Warning ReferenceNotFound"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if n := len(f.Neutron.Networks()); n != 0 {
				t.Errorf("Neutron holds %d networks, want none", n)
			}
		},
		wantObject: WantNotReady(samplecrdv1.ReasonReferenceNotFound, `spec.qosPolicy names QoS policy "platinum"`),
	}, {
		name:       "QoS policy name matching two: ReferenceAmbiguous, nothing created",
		object:     withQoS(NewNetwork("qos-twice", "10.45.0.0/24", ""), &samplecrdv1.NeutronRef{Name: "lead"}),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { policies(d) },
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list qos/policies"},
		wantEvents: []string{"Warning ReferenceAmbiguous"},
		wantObject: WantNotReady(samplecrdv1.ReasonReferenceAmbiguous, "sees 2 of that name; name it by id"),
	}}
}

func withQoS(n *samplecrdv1.Network, ref *samplecrdv1.NeutronRef) *samplecrdv1.Network {
	n.Spec.QoSPolicy = ref
	return n
}

func wantNetworkQoS(id string) func(*testing.T, *Fixture, neutron.Owner) {
	return func(t *testing.T, f *Fixture, _ neutron.Owner) {
		nets := f.Neutron.Networks()
		if len(nets) != 1 || nets[0].QoSPolicyID == nil && id != "" || nets[0].QoSPolicyID != nil && *nets[0].QoSPolicyID != id {
			t.Errorf("Neutron networks = %+v, want one with QoS policy %q", nets, id)
		}
	}
}

func wantReadyWithQoS(id string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		if !got.IsReady() || got.Status.QoSPolicyID != id {
			t.Errorf("Ready %v, status.qosPolicyID %q; want Ready with %q", got.IsReady(), got.Status.QoSPolicyID, id)
		}
	}
}

// wantQoSSent checks that the network ends with QoS policy id, set by the one PUT body.
func wantQoSSent(id, body string) func(*testing.T, *Fixture, neutron.Owner) {
	return func(t *testing.T, f *Fixture, owner neutron.Owner) {
		wantNetworkQoS(id)(t, f, owner)
		if got := f.Neutron.Bodies("update network"); len(got) != 1 || got[0] != body {
			t.Errorf("update network bodies = %q, want one: %s", got, body)
		}
	}
}

// networkInProject puts the one network Neutron holds into project, as Neutron reports
// the project of every network.
func networkInProject(d *neutronfake.Driver, project string) {
	net := d.Networks()[0]
	net.ProjectID = project
	d.PutNetwork(net)
}
