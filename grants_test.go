package main

import (
	"testing"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/grants"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// A Network refused for want of a grant waits for no spec change: the grant's arrival
// queues it, and its next pass makes it.
func TestGrantArrivingQueuesRefusedNetwork(t *testing.T) {
	network := networktest.NewNetwork("kept", "10.31.0.0/24", "")
	network.Spec.DeletionPolicy = samplecrdv1.DeletionPolicyRetain
	f := newFixture(t, network)
	f.Grants.Powers = grants.Powers{}
	f.startLeading()
	if err := f.sync(network); !networktest.IsTerminal(err) {
		t.Fatalf("sync error = %v, want the terminal NotGranted", err)
	}
	f.Put(f.Refresh(network.Namespace, network.Name))
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Fatalf("queue holds %d items after a terminal refusal, want 0", n)
	}

	f.Grants.Set(network.Namespace, grants.Powers{Retain: true, Identities: []string{"ops"}})
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Fatalf("queue holds %d items after the grant, want the refused Network", n)
	}
	f.controller.processNextWorkItem(f.Ctx)
	networktest.WantReady("10.31.0.1")(t, f.Refresh(network.Namespace, network.Name))
}

// An identity's Secret changing queues the Networks that name the identity, and only
// them: a rotated delegated credential is used without a restart.
func TestIdentitySecretChangeQueuesItsNetworks(t *testing.T) {
	named, other := withIdentity(networktest.NewNetwork("named", "10.32.3.0/24", ""), "team-a-prod"), withIdentity(networktest.NewNetwork("other", "10.32.4.0/24", ""), "team-b")
	f := newFixture(t, named, other)
	f.Put(named)
	f.Put(other)
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
	named := withIdentity(networktest.NewNetwork("named", "10.32.5.0/24", ""), "team-a-prod")
	scoped := newFixtureWithConfig(t, func(c *Config) { c.Namespaces = scope.Namespaces{named.Namespace} })
	if scoped.controller.watchesSecretOf("team-a-prod") {
		t.Error("a scoped controller watches the Secret of an identity none of its Networks names")
	}
	scoped.Put(named)
	if !scoped.controller.watchesSecretOf("team-a-prod") || scoped.controller.watchesSecretOf("team-b") {
		t.Error("a scoped controller does not watch exactly the Secret of the identity its Network names")
	}
	if all := newFixture(t); !all.controller.watchesSecretOf("team-b") {
		t.Error("a controller of every namespace does not watch every identity's Secret")
	}
}

func withIdentity(n *samplecrdv1.Network, identity string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}
	return n
}
