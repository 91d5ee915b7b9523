package main

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
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
	return &samplecrdv1.Network{
		TypeMeta: metav1.TypeMeta{APIVersion: samplecrdv1.SchemeGroupVersion.String(), Kind: "Network"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: metav1.NamespaceDefault, UID: types.UID("uid-" + name),
			Generation: 1, ResourceVersion: "1",
		},
		Spec: samplecrdv1.NetworkSpec{CIDR: cidr, Gateway: gateway},
	}
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

func TestAddCreatesTaggedNetworkAndSubnetAndReportsReady(t *testing.T) {
	network := newNetwork("example-network", "192.168.0.0/16", "192.168.0.1")
	f := newFixture(t, network)

	// The finalizer must be stored before Neutron is touched at all.
	f.client.PrependReactor("update", "networks", func(action core.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() == "" && len(f.neutron.Calls()) > 0 {
			t.Errorf("finalizer written after Neutron calls %v", f.neutron.Calls())
		}
		return false, nil, nil
	})

	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}

	got := f.refresh("default", "example-network")
	if !slices.Contains(got.Finalizers, finalizerName) {
		t.Errorf("finalizers = %v, want %s", got.Finalizers, finalizerName)
	}
	nets, subnets := f.neutron.Networks(), f.neutron.Subnets()
	if len(nets) != 1 || len(subnets) != 1 {
		t.Fatalf("Neutron holds %d networks and %d subnets, want 1 and 1", len(nets), len(subnets))
	}
	owner := ownerOf(network)
	if !owner.HasTags(nets[0].Tags) || !owner.HasTags(subnets[0].Tags) {
		t.Errorf("ownership tags missing: network %v, subnet %v", nets[0].Tags, subnets[0].Tags)
	}
	if nets[0].Name != "k8s_default_example-network" {
		t.Errorf("network name = %q", nets[0].Name)
	}
	s := subnets[0]
	if s.CIDR != "192.168.0.0/16" || s.GatewayIP != "192.168.0.1" || s.IPVersion != 4 {
		t.Errorf("subnet = %+v", s)
	}
	wantPools := []neutron.Pool{{Start: "192.168.0.2", End: "192.168.255.254"}}
	if !slices.Equal(s.AllocationPools, wantPools) {
		t.Errorf("pools = %v, want %v", s.AllocationPools, wantPools)
	}

	if got.Status.NetworkID != nets[0].ID || got.Status.SubnetID != s.ID || got.Status.Gateway != "192.168.0.1" {
		t.Errorf("status = %+v", got.Status)
	}
	if got.Status.ObservedGeneration != 1 {
		t.Errorf("observedGeneration = %d, want 1", got.Status.ObservedGeneration)
	}
	ready := readyCondition(t, got)
	if ready.Status != metav1.ConditionTrue || ready.Reason != samplecrdv1.ReasonProvisioned {
		t.Errorf("Ready = %s/%s, want True/Provisioned", ready.Status, ready.Reason)
	}
	events := f.events()
	for _, want := range []string{"NetworkCreated", "SubnetCreated", samplecrdv1.ReasonProvisioned} {
		if !hasEvent(events, want) {
			t.Errorf("no %s Event in %v", want, events)
		}
	}
}

func TestSyncOfReadyNetworkChangesNothing(t *testing.T) {
	network := newNetwork("steady", "10.1.0.0/24", "")
	f := newFixture(t, network)
	if err := f.sync(network); err != nil {
		t.Fatalf("first sync: %v", err)
	}
	f.refresh("default", "steady")
	f.client.ClearActions()
	f.events()

	if err := f.sync(network); err != nil {
		t.Fatalf("second sync: %v", err)
	}
	for _, a := range f.client.Actions() {
		if a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
			t.Errorf("unexpected write %s %s/%s on a Network already in sync", a.GetVerb(), a.GetResource().Resource, a.GetSubresource())
		}
	}
	if len(f.neutron.Networks()) != 1 || len(f.neutron.Subnets()) != 1 {
		t.Errorf("second sync created resources: %d networks, %d subnets", len(f.neutron.Networks()), len(f.neutron.Subnets()))
	}
	if events := f.events(); len(events) != 0 {
		t.Errorf("second sync recorded Events %v", events)
	}
}

func TestGatewayChangeUpdatesSubnetInPlace(t *testing.T) {
	network := newNetwork("gw", "192.168.0.0/16", "192.168.0.1")
	f := newFixture(t, network)
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	before := f.refresh("default", "gw")

	changed := before.DeepCopy()
	changed.Spec.Gateway = "192.168.100.1"
	changed.Generation = 2
	changed, err := f.client.SamplecrdV1().Networks("default").Update(f.ctx, changed, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	f.putCache(changed)
	if err := f.sync(changed); err != nil {
		t.Fatalf("sync after change: %v", err)
	}

	after := f.refresh("default", "gw")
	subnets := f.neutron.Subnets()
	if len(subnets) != 1 || subnets[0].ID != before.Status.SubnetID {
		t.Fatalf("subnet replaced instead of updated: before %s, now %+v", before.Status.SubnetID, subnets)
	}
	wantPools := []neutron.Pool{
		{Start: "192.168.0.1", End: "192.168.100.0"},
		{Start: "192.168.100.2", End: "192.168.255.254"},
	}
	if subnets[0].GatewayIP != "192.168.100.1" || !slices.Equal(subnets[0].AllocationPools, wantPools) {
		t.Errorf("subnet gateway %s pools %v, want 192.168.100.1 and %v", subnets[0].GatewayIP, subnets[0].AllocationPools, wantPools)
	}
	if after.Status.Gateway != "192.168.100.1" || after.Status.ObservedGeneration != 2 {
		t.Errorf("status = %+v", after.Status)
	}
	if !hasEvent(f.events(), "GatewayUpdated") {
		t.Error("no GatewayUpdated Event")
	}
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

func TestRejectedSpecIsTerminal(t *testing.T) {
	network := newNetwork("rejected", "10.3.0.0/24", "")
	f := newFixture(t, network)
	key := cache.MetaObjectToName(network)
	f.neutron.FailWith("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Invalid input"})

	f.controller.workqueue.Add(key)
	f.controller.processNextWorkItem(f.ctx)

	if n := f.controller.workqueue.NumRequeues(key); n != 0 {
		t.Errorf("NumRequeues = %d, want 0: a rejected spec must wait for a spec change", n)
	}
	got := f.refresh("default", "rejected")
	c := readyCondition(t, got)
	if c.Status != metav1.ConditionFalse || c.Reason != samplecrdv1.ReasonInvalidSpec || !strings.Contains(c.Message, "Invalid input") {
		t.Errorf("Ready = %s/%s %q", c.Status, c.Reason, c.Message)
	}
	if got.Status.NetworkID == "" {
		t.Error("networkID not recorded although the network was created")
	}
	if !hasEvent(f.events(), "Warning "+samplecrdv1.ReasonInvalidSpec) {
		t.Error("no Warning InvalidSpec Event")
	}
}

func TestInvalidSpecIsReportedWithoutNeutronCalls(t *testing.T) {
	network := newNetwork("bad", "10.0.0.1/24", "")
	f := newFixture(t, network)
	if err := f.sync(network); err != nil {
		t.Fatalf("sync returned %v; a terminal error must not be retried", err)
	}
	if c := readyCondition(t, f.refresh("default", "bad")); c.Reason != samplecrdv1.ReasonInvalidSpec {
		t.Errorf("reason = %s, want InvalidSpec", c.Reason)
	}
	if calls := f.neutron.Calls(); len(calls) != 0 {
		t.Errorf("Neutron called for an invalid spec: %v", calls)
	}
}

func TestInterruptedCreateIsAdoptedNotDuplicated(t *testing.T) {
	network := newNetwork("crashed", "10.4.0.0/24", "")
	network.Finalizers = []string{finalizerName}
	f := newFixture(t, network)
	owner := ownerOf(network)
	// What a controller killed between the create and the tag call leaves behind.
	f.neutron.PutNetwork(neutron.Network{ID: "left-behind", Name: owner.ResourceName(), Description: owner.Description()})

	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if slices.Contains(f.neutron.Calls(), "create network") {
		t.Error("created a second network instead of adopting the first")
	}
	nets := f.neutron.Networks()
	if len(nets) != 1 || nets[0].ID != "left-behind" || !owner.HasTags(nets[0].Tags) {
		t.Errorf("networks = %+v, want the adopted one, tagged", nets)
	}
	if got := f.refresh("default", "crashed"); got.Status.NetworkID != "left-behind" {
		t.Errorf("status.networkID = %q", got.Status.NetworkID)
	}
}

func TestDeletionRemovesSubnetNetworkThenFinalizer(t *testing.T) {
	network := newNetwork("doomed", "10.5.0.0/24", "")
	f := newFixture(t, network)
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	deleting := f.refresh("default", "doomed").DeepCopy()
	now := metav1.Now()
	deleting.DeletionTimestamp = &now
	f.putCache(deleting)

	if err := f.sync(deleting); err != nil {
		t.Fatalf("sync of deletion: %v", err)
	}
	if n, s := len(f.neutron.Networks()), len(f.neutron.Subnets()); n != 0 || s != 0 {
		t.Errorf("Neutron still holds %d networks and %d subnets", n, s)
	}
	calls := f.neutron.Calls()
	if i, j := slices.Index(calls, "delete subnet"), slices.Index(calls, "delete network"); i < 0 || j < i {
		t.Errorf("want subnet deleted before network, calls %v", calls)
	}
	got, err := f.client.SamplecrdV1().Networks("default").Get(f.ctx, "doomed", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if slices.Contains(got.Finalizers, finalizerName) {
		t.Error("finalizer still present after the Neutron side is gone")
	}
}

func TestDeletionBlockedByPortsKeepsFinalizer(t *testing.T) {
	network := newNetwork("busy", "10.6.0.0/24", "")
	f := newFixture(t, network)
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	deleting := f.refresh("default", "busy").DeepCopy()
	now := metav1.Now()
	deleting.DeletionTimestamp = &now
	f.putCache(deleting)
	f.neutron.FailWith("delete subnet", &neutron.Error{Op: "delete subnet", Kind: neutron.KindInUse, Code: 409,
		Type: "SubnetInUse", Message: "One or more ports have an IP allocation from this subnet."})

	err := f.sync(deleting)
	var reported *reportedError
	if !errors.As(err, &reported) {
		t.Fatalf("sync error = %v, want a reported, retryable error", err)
	}
	got := f.refresh("default", "busy")
	if !slices.Contains(got.Finalizers, finalizerName) {
		t.Error("finalizer removed although the subnet could not be deleted")
	}
	c := readyCondition(t, got)
	if c.Reason != samplecrdv1.ReasonSubnetInUse || !strings.Contains(c.Message, "ports") {
		t.Errorf("Ready = %s %q, want SubnetInUse naming the ports", c.Reason, c.Message)
	}
	if !hasEvent(f.events(), "Warning "+samplecrdv1.ReasonSubnetInUse) {
		t.Error("no Warning SubnetInUse Event")
	}
}

func TestDeletionWithoutStatusFindsResourcesByTag(t *testing.T) {
	network := newNetwork("nostatus", "10.7.0.0/24", "")
	now := metav1.Now()
	network.DeletionTimestamp = &now
	network.Finalizers = []string{finalizerName}
	f := newFixture(t, network)
	owner := ownerOf(network)
	f.neutron.PutNetwork(neutron.Network{ID: "n1", Tags: owner.Tags()})
	f.neutron.PutSubnet(neutron.Subnet{ID: "s1", NetworkID: "n1", Tags: owner.Tags()})

	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if n := len(f.neutron.Networks()); n != 0 {
		t.Errorf("%d networks left", n)
	}
	_, err := f.client.SamplecrdV1().Networks("default").Get(f.ctx, "nostatus", metav1.GetOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("get: %v", err)
	}
}

func TestNeutronResyncRequeuesDriftAndCollectsOrphans(t *testing.T) {
	drifted := newNetwork("drifted", "10.8.0.0/24", "")
	f := newFixture(t, drifted)
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
	f.neutron.PutNetwork(neutron.Network{ID: "orphan", Tags: orphanOwner.Tags(), CreatedAt: old})
	f.neutron.PutNetwork(neutron.Network{ID: "young-orphan", Tags: orphanOwner.Tags(), CreatedAt: time.Now()})
	foreign := neutron.Owner{ClusterID: "another-cluster", UID: "uid-elsewhere"}
	f.neutron.PutNetwork(neutron.Network{ID: "foreign", Tags: foreign.Tags(), CreatedAt: old})

	f.controller.resyncNeutron(f.ctx)

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
		t.Errorf("networks left = %v, want %v (old orphan collected, young and foreign kept)", ids, want)
	}
}

func TestNeutronResyncLeavesRejectedSpecAlone(t *testing.T) {
	network := newNetwork("rejected-once", "10.9.0.0/24", "")
	f := newFixture(t, network)
	f.neutron.FailWith("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Multicast"})
	if err := f.sync(network); err != nil {
		t.Fatalf("sync: %v", err)
	}
	f.refresh("default", "rejected-once")

	f.controller.resyncNeutron(f.ctx)
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Errorf("resync queued %d items; a spec Neutron rejected must wait for a spec change", n)
	}
}

func TestWriteConflictIsRetried(t *testing.T) {
	network := newNetwork("conflicted", "10.10.0.0/24", "")
	f := newFixture(t, network)
	key := cache.MetaObjectToName(network)
	f.client.PrependReactor("update", "networks", func(core.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(samplecrdv1.Resource("networks"), "conflicted", errors.New("the object has been modified"))
	})

	f.controller.workqueue.Add(key)
	f.controller.processNextWorkItem(f.ctx)
	if n := f.controller.workqueue.NumRequeues(key); n != 1 {
		t.Errorf("NumRequeues = %d after a write conflict, want 1", n)
	}
	if calls := f.neutron.Calls(); len(calls) != 0 {
		t.Errorf("Neutron called although the finalizer could not be written: %v", calls)
	}
}
