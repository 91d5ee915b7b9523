package main

import (
	"testing"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/grants"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// delegationCases are Networks naming a ClusterIdentity: refused when it hands their
// namespace nothing, and held to the powers it allows. The fixture has no Secrets, so a
// delegation that gets as far as the identity's Secret stops there.
func delegationCases() []syncCase {
	return []syncCase{{
		name:        "identity that does not select the namespace (or does not exist): NamespaceNotSelected, nothing made",
		object:      withIdentity(newNetwork("team", "10.32.0.0/24", ""), "team-a-prod"),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning NamespaceNotSelected"},
		wantObject:  wantNotReady(samplecrdv1.ReasonNamespaceNotSelected, "no ClusterIdentity named team-a-prod selects namespace default"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:        "identity without a Secret: ClusterIdentityNotDelegating, nothing made",
		object:      withIdentity(newNetwork("team", "10.32.1.0/24", ""), "own-cloud-grants"),
		before:      func(f *fixture) { f.grants.notDelegating = []string{"own-cloud-grants"} },
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning ClusterIdentityNotDelegating"},
		wantObject:  wantNotReady(samplecrdv1.ReasonClusterIdentityNotDelegating, "ClusterIdentity own-cloud-grants has no spec.secretRef"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:       "delegating identity whose Secret is missing: the Secret's reason, naming the identity, for the operator",
		object:     withIdentity(newNetwork("team", "10.32.2.0/24", ""), "team-a-prod"),
		before:     delegate("team-a-prod", grants.Powers{}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: wantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound,
			"ClusterIdentity team-a-prod cannot be used, ask the cluster's operator: Secret ops/team-a-prod does not exist"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:       "import through an identity that does not allow it: NotGranted before the Secret is read",
		object:     withIdentity(importedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""), "team-a-prod"),
		before:     delegate("team-a-prod", grants.Powers{Retain: true, Identities: []string{"team-a-prod"}}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: wantNotReady(samplecrdv1.ReasonNotGranted, "(team-a-prod) do not allow spec.import (allow.import)"),
	}, {
		name:   "import through an identity that allows it: past the grant, to the identity's Secret",
		object: withIdentity(importedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""), "team-a-prod"),
		before: delegate("team-a-prod", grants.Powers{Import: true, Identities: []string{"team-a-prod"}}),
		want:   stops, wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: wantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound, "ClusterIdentity team-a-prod cannot be used"),
	}, {
		name:   "the controller's own cloud grants do not reach a delegated project: its identity's alone count",
		object: withIdentity(importedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""), "team-a-prod"),
		before: func(f *fixture) {
			f.grants.powers = grants.Powers{Import: true, Identities: []string{"own-cloud"}}
			delegate("team-a-prod", grants.Powers{Identities: []string{"team-a-prod"}})(f)
		},
		want: stops, wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: wantNotReady(samplecrdv1.ReasonNotGranted, "(team-a-prod) do not allow spec.import"),
	}}
}

// delegate makes the identity name delegate the project of Secret ops/<name> to every
// namespace, with powers.
func delegate(name string, powers grants.Powers) func(*fixture) {
	return func(f *fixture) {
		if f.grants.delegations == nil {
			f.grants.delegations = map[string]grants.Delegation{}
		}
		f.grants.delegations[name] = grants.Delegation{Identity: name, Secret: cache.NewObjectName("ops", name), Cloud: "prod", Powers: powers}
	}
}

func withIdentity(n *samplecrdv1.Network, identity string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}
	return n
}

// An identity's Secret changing queues the Networks that name the identity, and only
// them: a rotated delegated credential is used without a restart.
func TestIdentitySecretChangeQueuesItsNetworks(t *testing.T) {
	named, other := withIdentity(newNetwork("named", "10.32.3.0/24", ""), "team-a-prod"), withIdentity(newNetwork("other", "10.32.4.0/24", ""), "team-b")
	f := newFixture(t, named, other)
	f.putCache(named)
	f.putCache(other)
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Fatalf("queue holds %d items before the Secret changed, want 0", n)
	}
	f.controller.queueUsersOfIdentity("team-a-prod", fairqueue.UserChange)
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Fatalf("queue holds %d items, want the one Network naming the identity", n)
	}
	if got, _ := f.controller.workqueue.Get(); got != cache.MetaObjectToName(named) {
		t.Errorf("queued %s, want %s", got, cache.MetaObjectToName(named))
	}
}

// A controller watching some namespaces watches the Secret of an identity only while one
// of its Networks names it; one watching every namespace watches every identity's.
func TestIdentitySecretIsWatchedWhereItsNetworksAre(t *testing.T) {
	named := withIdentity(newNetwork("named", "10.32.5.0/24", ""), "team-a-prod")
	scoped := newFixtureWithConfig(t, func(c *Config) { c.Namespaces = scope.Namespaces{named.Namespace} })
	if scoped.controller.watchesSecretOf("team-a-prod") {
		t.Error("a scoped controller watches the Secret of an identity none of its Networks names")
	}
	scoped.putCache(named)
	if !scoped.controller.watchesSecretOf("team-a-prod") || scoped.controller.watchesSecretOf("team-b") {
		t.Error("a scoped controller does not watch exactly the Secret of the identity its Network names")
	}
	if all := newFixture(t); !all.controller.watchesSecretOf("team-b") {
		t.Error("a controller of every namespace does not watch every identity's Secret")
	}
}
