package reconcile_test

import (
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// qosGrantCases fence spec.qosPolicy in the project the namespaces share: the policy needs
// an identity's allow.qosPolicies, by id or by name. Without it a new Network is refused
// with nothing made; one set before its grant went is kept and reported in warn mode, and
// in enforce mode set back to what Neutron gives a new network, the project's default.
func qosGrantCases() []syncCase {
	policies := func(d *neutronfake.Driver) {
		d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-gold", Name: "gold", ProjectID: "p-own"}, false)
		d.PutNamed(neutron.QoSPolicies, neutron.Named{ID: "q-silver", Name: "silver", ProjectID: "p-own"}, false)
	}
	// inEffect is a Network Ready with gold, which the controller set on its network of
	// project p-own; the project's default policy is q-cap.
	inEffect := func(name, cidr string) (*samplecrdv1.Network, func(*neutronfake.Driver, neutron.Owner)) {
		n := withQoS(RealizedNetwork(name, cidr, ""), &samplecrdv1.NeutronRef{Name: "gold"})
		n.Status.QoSPolicyID = "q-gold"
		return n, func(d *neutronfake.Driver, owner neutron.Owner) {
			policies(d)
			d.PutDefaultQoSPolicy(neutron.Named{ID: "q-cap", Name: "bandwidth-cap", ProjectID: "p-own"}, false)
			PutRealized(d, owner, cidr, cidr[:len(cidr)-4]+"1")
			gold := "q-gold"
			net := d.Networks()[0]
			net.QoSPolicyID, net.ProjectID = &gold, "p-own"
			d.PutNetwork(net)
		}
	}
	warned, warnedNeutron := inEffect("qos-warned", "10.48.0.0/24")
	enforced, enforcedNeutron := inEffect("qos-enforced", "10.48.1.0/24")
	paused, pausedNeutron := inEffect("qos-paused", "10.48.2.0/24")
	pausedWarned, pausedWarnedNeutron := inEffect("qos-paused-warned", "10.48.3.0/24")
	return []syncCase{{
		name:       "QoS policy in the shared project without a grant: NotGranted naming it and the identity, nothing made",
		object:     withQoS(NewNetwork("qos-ungranted", "10.49.0.0/24", ""), &samplecrdv1.NeutronRef{Name: "gold"}),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { policies(d) },
		before:     grant(grants.Powers{QoSPolicies: []samplecrdv1.NeutronRef{{Name: "silver"}}, Identities: []string{"ops"}}),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list qos/policies"},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: WantNotReady(samplecrdv1.ReasonNotGranted,
			`(ops) do not allow spec.qosPolicy QoS policy q-gold "gold" (allow.qosPolicies); nothing of these was done`),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:        "QoS policy named by name, granted by id: created with it, Ready",
		object:      withQoS(NewNetwork("qos-granted", "10.49.1.0/24", ""), &samplecrdv1.NeutronRef{Name: "gold"}),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { policies(d) },
		before:      grant(grants.Powers{QoSPolicies: []samplecrdv1.NeutronRef{{ID: "q-gold"}}, Identities: []string{"ops"}}),
		want:        succeeds,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantCalls:   []string{"list qos/policies", "create network", "tag network", "create subnet"},
		wantEvents:  []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: wantNetworkQoS("q-gold"),
		wantObject:  wantReadyWithQoS("q-gold"),
	}, {
		name:       "a QoS policy set before its grant went, warned: kept, Ready stays, GrantMissing names it",
		object:     warned,
		neutron:    warnedNeutron,
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list qos/policies"},
		wantEvents: []string{"Warning KeptWithoutGrant"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			wantNetworkQoS("q-gold")(t, f, owner)
			if got := f.Neutron.Bodies("update network"); len(got) != 0 {
				t.Errorf("update network bodies = %q, want none", got)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantReadyWithQoS("q-gold")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant,
				`spec.qosPolicy QoS policy q-gold "gold" (allow.qosPolicies). -grant-enforcement is warn`)
		},
	}, {
		name:    "a QoS policy set before its grant went, enforced: set back to the project's default, then NotGranted",
		object:  enforced,
		neutron: enforcedNeutron,
		before:  enforce(grants.Powers{}),
		want:    stops,
		// The next pass leaves the default alone: nothing looked up, sent or written again.
		retry:       stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list qos/policies", "list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Warning NotGranted"},
		wantNeutron: wantQoSSent("q-cap", `{"qos_policy_id":"q-cap"}`),
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNotGranted, `spec.qosPolicy QoS policy q-gold "gold" (allow.qosPolicies)`)(t, got)
			if got.Status.QoSPolicyID != "" {
				t.Errorf("status.qosPolicyID = %q, want none", got.Status.QoSPolicyID)
			}
		},
	}, {
		name:        "paused, the QoS grant taken away, enforced: set back to the project's default all the same, Paused stays",
		object:      withAnnotation(paused, samplecrdv1.ReconcilePaused),
		neutron:     pausedNeutron,
		before:      enforce(grants.Powers{}),
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list qos/policies", "update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Paused"},
		wantNeutron: wantQoSSent("q-cap", `{"qos_policy_id":"q-cap"}`),
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNotGranted, "spec.qosPolicy QoS policy q-gold (allow.qosPolicies)")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionPaused, samplecrdv1.ReasonPaused, "")
			if got.Status.QoSPolicyID != "" {
				t.Errorf("status.qosPolicyID = %q, want none", got.Status.QoSPolicyID)
			}
		},
	}, {
		name:        "paused, the QoS grant taken away, warned: no Neutron call, GrantMissing beside Paused",
		object:      withAnnotation(pausedWarned, samplecrdv1.ReconcilePaused),
		neutron:     pausedWarnedNeutron,
		before:      grant(grants.Powers{}),
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning KeptWithoutGrant", "Normal Paused"},
		wantNeutron: wantNetworkQoS("q-gold"),
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "spec.qosPolicy QoS policy q-gold (allow.qosPolicies)")
		},
	}}
}
