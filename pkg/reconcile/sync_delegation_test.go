package reconcile_test

import (
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
)

// delegationCases are Networks naming a ClusterIdentity: refused when it hands their
// namespace nothing, and held to the powers it allows. The Fixture has no Secrets, so a
// delegation that gets as far as the identity's Secret stops there.
func delegationCases() []syncCase {
	return []syncCase{{
		name:        "identity that does not select the namespace (or does not exist): NamespaceNotSelected, nothing made",
		object:      withIdentity(NewNetwork("team", "10.32.0.0/24", ""), "team-a-prod"),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning NamespaceNotSelected"},
		wantObject:  WantNotReady(samplecrdv1.ReasonNamespaceNotSelected, "no ClusterIdentity named team-a-prod selects namespace default"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:        "identity without a Secret: ClusterIdentityNotDelegating, nothing made",
		object:      withIdentity(NewNetwork("team", "10.32.1.0/24", ""), "own-cloud-grants"),
		before:      func(f *Fixture) { f.Grants.NotDelegating = []string{"own-cloud-grants"} },
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning ClusterIdentityNotDelegating"},
		wantObject:  WantNotReady(samplecrdv1.ReasonClusterIdentityNotDelegating, "ClusterIdentity own-cloud-grants has no spec.secretRef"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:       "delegating identity whose Secret is missing: the Secret's reason, naming the identity, for the operator",
		object:     withIdentity(NewNetwork("team", "10.32.2.0/24", ""), "team-a-prod"),
		before:     delegate("team-a-prod", grants.Powers{}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: WantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound,
			"ClusterIdentity team-a-prod cannot be used, ask the cluster's operator: Secret ops/team-a-prod does not exist"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:       "import through an identity that does not allow it: NotGranted before the Secret is read",
		object:     withIdentity(ImportedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""), "team-a-prod"),
		before:     delegate("team-a-prod", grants.Powers{Retain: true, Identities: []string{"team-a-prod"}}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: WantNotReady(samplecrdv1.ReasonNotGranted, "(team-a-prod) do not allow spec.import (allow.import)"),
	}, {
		name:   "import through an identity that allows it: past the grant, to the identity's Secret",
		object: withIdentity(ImportedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""), "team-a-prod"),
		before: delegate("team-a-prod", grants.Powers{Import: true, Identities: []string{"team-a-prod"}}),
		want:   stops, wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: WantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound, "ClusterIdentity team-a-prod cannot be used"),
	}, {
		name:   "the controller's own cloud grants do not reach a delegated project: its identity's alone count",
		object: withIdentity(ImportedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""), "team-a-prod"),
		before: func(f *Fixture) {
			f.Grants.Powers = grants.Powers{Import: true, Identities: []string{"own-cloud"}}
			delegate("team-a-prod", grants.Powers{Identities: []string{"team-a-prod"}})(f)
		},
		want: stops, wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: WantNotReady(samplecrdv1.ReasonNotGranted, "(team-a-prod) do not allow spec.import"),
	}}
}

// delegate makes the identity name delegate the project of Secret ops/<name> to every
// namespace, with powers.
func delegate(name string, powers grants.Powers) func(*Fixture) {
	return func(f *Fixture) {
		if f.Grants.Delegations == nil {
			f.Grants.Delegations = map[string]grants.Delegation{}
		}
		f.Grants.Delegations[name] = grants.Delegation{Identity: name, Secret: cache.NewObjectName("ops", name), Cloud: "prod", Powers: powers}
	}
}

func withIdentity(n *samplecrdv1.Network, identity string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}
	return n
}
