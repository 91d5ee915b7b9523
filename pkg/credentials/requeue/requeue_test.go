package requeue_test

import (
	"slices"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/requeue"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// queued is what the Networks handed to enqueue, in order, each once as a workqueue
// holds it.
type queued []cache.ObjectName

func (q *queued) enqueue(key cache.ObjectName, _ fairqueue.Class) {
	if !slices.Contains(*q, key) {
		*q = append(*q, key)
	}
}

func newNetworks(t *testing.T, f *networktest.Fixture, namespaces scope.Namespaces) (*requeue.Networks, *queued) {
	t.Helper()
	q := &queued{}
	n, err := requeue.New(f.Networks, namespaces, nil, q.enqueue)
	if err != nil {
		t.Fatal(err)
	}
	return n, q
}

func withIdentity(n *samplecrdv1.Network, identity string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}
	return n
}

// An identity's Secret changing queues the Networks that name the identity, and only
// them: a rotated delegated credential is used without a restart.
func TestIdentitySecretChangeQueuesItsNetworks(t *testing.T) {
	named, other := withIdentity(networktest.NewNetwork("named", "10.32.3.0/24", ""), "team-a-prod"), withIdentity(networktest.NewNetwork("other", "10.32.4.0/24", ""), "team-b")
	f := networktest.NewFakes(t, "", named, other)
	n, q := newNetworks(t, f, nil)
	n.UsersOfIdentity("team-a-prod", fairqueue.UserChange)
	if want := (queued{cache.MetaObjectToName(named)}); !slices.Equal(*q, want) {
		t.Errorf("queued %v, want the one Network naming the identity, %v", *q, want)
	}
}

// A controller watching some namespaces watches the Secret of an identity only while one
// of its Networks names it; one watching every namespace watches every identity's.
func TestIdentitySecretIsWatchedWhereItsNetworksAre(t *testing.T) {
	named := withIdentity(networktest.NewNetwork("named", "10.32.5.0/24", ""), "team-a-prod")
	f := networktest.NewFakes(t, "")
	scoped, _ := newNetworks(t, f, scope.Namespaces{named.Namespace})
	if scoped.WatchesSecretOf("team-a-prod") {
		t.Error("a scoped controller watches the Secret of an identity none of its Networks names")
	}
	f.Put(named)
	if !scoped.WatchesSecretOf("team-a-prod") || scoped.WatchesSecretOf("team-b") {
		t.Error("a scoped controller does not watch exactly the Secret of the identity its Network names")
	}
	if all, _ := newNetworks(t, networktest.NewFakes(t, ""), nil); !all.WatchesSecretOf("team-b") {
		t.Error("a controller of every namespace does not watch every identity's Secret")
	}
}

// Time alone brings credentials into the warning: the check queues the Networks whose
// condition is due to change, and only those; once written, none.
func TestExpiryCheckQueuesNetworksWhoseWarningIsDue(t *testing.T) {
	network := networktest.NewNetwork("web", "10.30.0.0/24", "")
	f := networktest.New(t, network)
	f.WarnOfExpiry(7 * 24 * time.Hour)
	n, q := newNetworks(t, f, nil)
	f.StartLeading()
	if err := f.Sync(network); err != nil {
		t.Fatal(err)
	}
	f.Refresh(network.Namespace, network.Name)
	if got := n.ExpiryChanges(time.Now(), f.Reconciler.ExpiryOutOfDate); got != 0 || len(*q) != 0 {
		t.Fatalf("queued %d Networks (%v) whose credentials do not expire", got, *q)
	}

	// Days pass: the credentials now expire within the window.
	f.Neutron.SetCredentialExpiry(&neutron.CredentialExpiry{What: "password of Keystone user k8s", Kind: neutron.ExpiryPassword, At: time.Now().Add(6 * 24 * time.Hour)})
	if got := n.ExpiryChanges(time.Now(), f.Reconciler.ExpiryOutOfDate); got != 1 || !slices.Equal(*q, queued{cache.MetaObjectToName(network)}) {
		t.Fatalf("queued %d Networks (%v), want the one whose warning is due", got, *q)
	}
	if err := f.Sync(network); err != nil {
		t.Fatal(err)
	}
	f.Refresh(network.Namespace, network.Name)
	if got := n.ExpiryChanges(time.Now(), f.Reconciler.ExpiryOutOfDate); got != 0 {
		t.Errorf("queued %d Networks after the warning was written", got)
	}
}
