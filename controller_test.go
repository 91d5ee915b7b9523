package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

const testClusterID = "test-cluster"

// fixture is a controller wired to a fake clientset, a hand-fed informer cache and a fake
// Neutron. Tests call syncHandler or processNextWorkItem themselves.
type fixture struct {
	t          *testing.T
	ctx        context.Context
	client     *fake.Clientset
	neutron    *neutronfake.Driver
	recorder   *record.FakeRecorder
	controller *Controller
	indexer    cache.Indexer
}

func newFixture(t *testing.T, objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)

	var runtimeObjects []runtime.Object
	for _, o := range objects {
		runtimeObjects = append(runtimeObjects, o)
	}
	client := fake.NewClientset(runtimeObjects...)
	factory := informers.NewSharedInformerFactory(client, 0)
	networkInformer := factory.Samplecrd().V1().Networks()
	driver := neutronfake.New()

	c, err := NewController(ctx, k8sfake.NewClientset(), client, networkInformer, driver, metrics.New(), Config{
		ClusterID:         testClusterID,
		OrphanGracePeriod: time.Minute,
		RetryBaseDelay:    time.Millisecond,
		RetryMaxDelay:     10 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("NewController: %v", err)
	}
	recorder := record.NewFakeRecorder(100)
	c.recorder = recorder

	f := &fixture{t: t, ctx: ctx, client: client, neutron: driver, recorder: recorder, controller: c,
		indexer: networkInformer.Informer().GetIndexer()}
	for _, o := range objects {
		f.putCache(o)
	}
	return f
}

// putCache makes obj what the lister returns, as the informer would after a watch event.
func (f *fixture) putCache(obj *samplecrdv1.Network) {
	f.t.Helper()
	if err := f.indexer.Add(obj); err != nil {
		f.t.Fatalf("adding to cache: %v", err)
	}
}

// refresh copies the object from the fake API into the cache and returns it.
func (f *fixture) refresh(ns, name string) *samplecrdv1.Network {
	f.t.Helper()
	obj, err := f.client.SamplecrdV1().Networks(ns).Get(f.ctx, name, metav1.GetOptions{})
	if err != nil {
		f.t.Fatalf("getting Network %s/%s: %v", ns, name, err)
	}
	if err := f.indexer.Update(obj); err != nil {
		f.t.Fatalf("updating cache: %v", err)
	}
	return obj
}

// startLeading fills the Neutron index as Run does before its workers start, and forgets
// the calls that took, so tests see only the calls of what they do next.
func (f *fixture) startLeading() {
	f.t.Helper()
	if err := f.controller.fillIndex(f.ctx); err != nil {
		f.t.Fatalf("filling the index: %v", err)
	}
	f.neutron.ClearCalls()
	f.client.ClearActions()
}

// writes returns the API writes made so far, as "verb resource[/subresource]".
func (f *fixture) writes() []string {
	var out []string
	for _, a := range f.client.Actions() {
		switch a.GetVerb() {
		case "get", "list", "watch":
			continue
		}
		w := a.GetVerb() + " " + a.GetResource().Resource
		if sub := a.GetSubresource(); sub != "" {
			w += "/" + sub
		}
		out = append(out, w)
	}
	return out
}

func (f *fixture) sync(obj *samplecrdv1.Network) error {
	return f.controller.syncHandler(f.ctx, cache.MetaObjectToName(obj))
}

// events drains the recorded Events.
func (f *fixture) events() []string {
	var out []string
	for {
		select {
		case e := <-f.recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

func newNetwork(name, cidr, gateway string) *samplecrdv1.Network {
	n := newNetworkIn(metav1.NamespaceDefault, name, cidr)
	n.Spec.Gateway = gateway
	return n
}

func newNetworkIn(namespace, name, cidr string) *samplecrdv1.Network {
	return &samplecrdv1.Network{
		TypeMeta: metav1.TypeMeta{APIVersion: samplecrdv1.SchemeGroupVersion.String(), Kind: "Network"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: namespace, UID: uidFor(namespace, name),
			Generation: 1, ResourceVersion: "1",
		},
		Spec: samplecrdv1.NetworkSpec{CIDR: cidr},
	}
}

// uidFor makes a UID shaped like the apiserver's (a 36-character UUID), fixed per object.
func uidFor(namespace, name string) types.UID {
	h := fmt.Sprintf("%x", sha256.Sum256([]byte(namespace+"/"+name)))
	return types.UID(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
}

func ownerOf(n *samplecrdv1.Network) neutron.Owner {
	return neutron.Owner{ClusterID: testClusterID, Namespace: n.Namespace, Name: n.Name, UID: string(n.UID)}
}

func readyCondition(t *testing.T, n *samplecrdv1.Network) metav1.Condition {
	t.Helper()
	c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReady)
	if c == nil {
		t.Fatalf("Network %s has no Ready condition; status %+v", n.Name, n.Status)
	}
	return *c
}

func hasEvent(events []string, fragment string) bool {
	return slices.ContainsFunc(events, func(e string) bool { return strings.Contains(e, fragment) })
}

func TestUpdateHandlerSkipsResyncWithSameResourceVersion(t *testing.T) {
	f := newFixture(t)
	old := newNetwork("resync", "10.0.0.0/24", "")

	f.controller.handleUpdate(old, old.DeepCopy())
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Fatalf("resync with unchanged ResourceVersion queued %d items", n)
	}

	changed := old.DeepCopy()
	changed.ResourceVersion = "2"
	f.controller.handleUpdate(old, changed)
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Fatalf("real update queued %d items, want 1", n)
	}
}

func TestDeleteHandlerAcceptsTombstone(t *testing.T) {
	f := newFixture(t)
	gone := newNetwork("gone", "10.0.0.0/24", "")

	f.controller.enqueueNetwork(cache.DeletedFinalStateUnknown{Key: "default/gone", Obj: gone})

	if n := f.controller.workqueue.Len(); n != 1 {
		t.Fatalf("queue length = %d, want 1", n)
	}
	key, _ := f.controller.workqueue.Get()
	if key != (cache.ObjectName{Namespace: "default", Name: "gone"}) {
		t.Errorf("queued %v, want default/gone", key)
	}
	f.controller.workqueue.Done(key)
}

func TestTransientNeutronErrorIsRequeuedThenForgotten(t *testing.T) {
	network := newNetwork("flaky", "10.2.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	key := cache.MetaObjectToName(network)
	f.neutron.FailWith("create network", &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"})

	f.controller.workqueue.Add(key)
	f.controller.processNextWorkItem(f.ctx)

	if n := f.controller.workqueue.NumRequeues(key); n != 1 {
		t.Fatalf("NumRequeues = %d after a transient failure, want 1", n)
	}
	got := f.refresh("default", "flaky")
	if c := readyCondition(t, got); c.Status != metav1.ConditionFalse || c.Reason != samplecrdv1.ReasonNeutronUnavailable {
		t.Errorf("Ready = %s/%s, want False/%s", c.Status, c.Reason, samplecrdv1.ReasonNeutronUnavailable)
	}
	if !hasEvent(f.events(), "Warning "+samplecrdv1.ReasonNeutronUnavailable) {
		t.Error("no Warning Event for the failure")
	}

	// Neutron is back: the rate-limited retry arrives by itself and succeeds.
	f.neutron.FailWith("create network", nil)
	f.controller.processNextWorkItem(f.ctx)
	if n := f.controller.workqueue.NumRequeues(key); n != 0 {
		t.Errorf("NumRequeues = %d after success, want 0 (forgotten)", n)
	}
	if c := readyCondition(t, f.refresh("default", "flaky")); c.Status != metav1.ConditionTrue {
		t.Errorf("Ready = %s after recovery", c.Status)
	}
}

func TestNeutronResyncRequeuesDriftAndCollectsOrphans(t *testing.T) {
	drifted := newNetwork("drifted", "10.8.0.0/24", "")
	f := newFixture(t, drifted)
	f.startLeading()
	if err := f.sync(drifted); err != nil {
		t.Fatalf("sync: %v", err)
	}
	drifted = f.refresh("default", "drifted")

	// Someone deleted the network in Neutron by hand.
	if err := f.neutron.DeleteNetwork(f.ctx, drifted.Status.NetworkID); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	orphanOwner := neutron.Owner{ClusterID: testClusterID, UID: "uid-of-deleted-object"}
	ours := neutron.ClusterDescription(testClusterID)
	f.neutron.PutNetwork(neutron.Network{ID: "orphan", Description: ours, Tags: orphanOwner.Tags(), CreatedAt: old})
	// Never tagged: its create was interrupted, then its object was removed by force.
	f.neutron.PutNetwork(neutron.Network{ID: "untagged-orphan", Name: orphanOwner.ResourceName(), Description: ours, CreatedAt: old})
	f.neutron.PutNetwork(neutron.Network{ID: "young-orphan", Description: ours, Tags: orphanOwner.Tags(), CreatedAt: time.Now()})
	foreign := neutron.Owner{ClusterID: "another-cluster", UID: "uid-elsewhere"}
	f.neutron.PutNetwork(neutron.Network{ID: "foreign", Description: neutron.ClusterDescription(foreign.ClusterID), Tags: foreign.Tags(), CreatedAt: old})
	f.neutron.ClearCalls()

	f.controller.resyncNeutron(f.ctx)

	// Two list calls for the whole cluster, one DELETE per collected orphan.
	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets", "delete network", "delete network"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := f.controller.workqueue.Len(); n != 1 {
		t.Errorf("queue length = %d, want the drifted Network queued", n)
	}
	if !hasEvent(f.events(), "NeutronDrift") {
		t.Error("no NeutronDrift Event")
	}
	var ids []string
	for _, n := range f.neutron.Networks() {
		ids = append(ids, n.ID)
	}
	slices.Sort(ids)
	if want := []string{"foreign", "young-orphan"}; !slices.Equal(ids, want) {
		t.Errorf("networks left = %v, want %v (old orphans collected, young and foreign kept)", ids, want)
	}
}

func TestNeutronResyncLeavesRejectedSpecAlone(t *testing.T) {
	network := newNetwork("rejected-once", "10.9.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	f.neutron.FailWith("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Multicast"})
	var terminal *terminalError
	if err := f.sync(network); !errors.As(err, &terminal) {
		t.Fatalf("sync error = %v, want a terminal error", err)
	}
	f.refresh("default", "rejected-once")

	f.controller.resyncNeutron(f.ctx)
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Errorf("resync queued %d items; a spec Neutron rejected must wait for a spec change", n)
	}
}
