package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
)

func TestUpdateHandlerSkipsResyncWithSameResourceVersion(t *testing.T) {
	f := newFixture(t)
	old := networktest.NewNetwork("resync", "10.0.0.0/24", "")

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
	gone := networktest.NewNetwork("gone", "10.0.0.0/24", "")

	f.controller.enqueueNetwork(cache.DeletedFinalStateUnknown{Key: "default/gone", Obj: gone}, fairqueue.UserChange)

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
	network := networktest.NewNetwork("flaky", "10.2.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	key := cache.MetaObjectToName(network)
	f.Neutron.FailWith("create network", &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"})

	f.controller.workqueue.Add(key)
	f.controller.processNextWorkItem(f.Ctx)

	if n := f.controller.workqueue.NumRequeues(key); n != 1 {
		t.Fatalf("NumRequeues = %d after a transient failure, want 1", n)
	}
	got := f.Refresh("default", "flaky")
	if c := networktest.ReadyCondition(t, got); c.Status != metav1.ConditionFalse || c.Reason != samplecrdv1.ReasonNeutronUnavailable {
		t.Errorf("Ready = %s/%s, want False/%s", c.Status, c.Reason, samplecrdv1.ReasonNeutronUnavailable)
	}
	if !networktest.HasEvent(f.Events(), "Warning "+samplecrdv1.ReasonNeutronUnavailable) {
		t.Error("no Warning Event for the failure")
	}

	// Neutron is back: the rate-limited retry arrives by itself and succeeds.
	f.Neutron.FailWith("create network", nil)
	f.controller.processNextWorkItem(f.Ctx)
	if n := f.controller.workqueue.NumRequeues(key); n != 0 {
		t.Errorf("NumRequeues = %d after success, want 0 (forgotten)", n)
	}
	if c := networktest.ReadyCondition(t, f.Refresh("default", "flaky")); c.Status != metav1.ConditionTrue {
		t.Errorf("Ready = %s after recovery", c.Status)
	}
}

// Once shutting down, a worker takes no new item: the drain waits for the passes under
// way, not for the backlog, which the next leader lists again.
func TestShutdownTakesNoNewItem(t *testing.T) {
	waiting := networktest.NewNetwork("waiting", "10.2.1.0/24", "")
	f := newFixture(t, waiting)
	f.startLeading()
	f.controller.workqueue.Add(cache.MetaObjectToName(waiting))
	ctx, cancel := context.WithCancel(f.Ctx)
	cancel()

	if f.controller.processNextWorkItem(ctx) {
		t.Error("a worker shutting down asked for more work")
	}
	if calls := f.Neutron.Calls(); len(calls) != 0 {
		t.Errorf("a worker shutting down reconciled a waiting Network: Neutron calls %q", calls)
	}
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Errorf("queue holds %d items, want the one taken and let go", n)
	}
}

// TestSyncHandler follows a key through the controller's handler to the reconciler and
// back: the Network the cache holds is what is reconciled, and a key the cache no longer
// holds costs nothing. What the reconciler does with each kind of Network is
// pkg/reconcile's TestSync.
func TestSyncHandler(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cached  *samplecrdv1.Network // nil: the key's Network is gone
		neutron func(f *fixture)
		// wantNetworks is how many networks Neutron holds after the sync.
		wantNetworks int
		wantCalls    []string
		want         func(t *testing.T, f *fixture)
	}{{
		name:         "a new Network is made Ready",
		cached:       networktest.NewNetwork("new", "10.3.0.0/24", ""),
		wantNetworks: 1,
		wantCalls:    []string{"create network", "tag network", "create subnet"},
		want: func(t *testing.T, f *fixture) {
			networktest.WantReady("10.3.0.1")(t, f.Refresh("default", "new"))
		},
	}, {
		name:   "a Network being deleted has its Neutron side removed, then its finalizer",
		cached: networktest.Deleting(networktest.RealizedNetwork("leaving", "10.3.1.0/24", "")),
		neutron: func(f *fixture) {
			networktest.PutRealized(f.Neutron, networktest.OwnerOf(networktest.NewNetwork("leaving", "", "")), "10.3.1.0/24", "10.3.1.1")
		},
		wantCalls: []string{"delete network"},
		want: func(t *testing.T, f *fixture) {
			if got := f.Writes(); len(got) != 1 || got[0] != "patch networks" {
				t.Errorf("API writes = %q, want the finalizer's patch", got)
			}
		},
	}, {
		name: "a key whose Network is gone costs nothing",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var objects []*samplecrdv1.Network
			key := cache.ObjectName{Namespace: "default", Name: "gone"}
			if tc.cached != nil {
				objects = append(objects, tc.cached)
				key = cache.MetaObjectToName(tc.cached)
			}
			f := newFixture(t, objects...)
			if tc.neutron != nil {
				tc.neutron(f)
			}
			f.startLeading()

			if err := f.controller.syncHandler(f.Ctx, key); err != nil {
				t.Fatalf("syncHandler(%s) = %v, want nil", key, err)
			}
			if got := f.Neutron.Calls(); !slices.Equal(got, tc.wantCalls) {
				t.Errorf("Neutron calls = %q, want %q", got, tc.wantCalls)
			}
			if got := len(f.Neutron.Networks()); got != tc.wantNetworks {
				t.Errorf("Neutron holds %d networks, want %d", got, tc.wantNetworks)
			}
			if tc.want != nil {
				tc.want(t, f)
			}
		})
	}
}

// withReady returns network with a Ready condition for generation.
func withReady(network *samplecrdv1.Network, generation int64, status metav1.ConditionStatus, reason string) *samplecrdv1.Network {
	n := network.DeepCopy()
	n.Status.ObservedGeneration = generation
	networktest.SetReadyCondition(&n.Status, generation, status, reason, "test")
	return n
}

// TestNetworksGaugeIsTheLeadersOnly: every state is exported at zero from the start, the
// counts follow the cache, and a replica that does not lead exports none.
func TestNetworksGaugeIsTheLeadersOnly(t *testing.T) {
	ready := withReady(networktest.NewNetwork("ready", "10.0.0.0/24", ""), 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned)
	down := withReady(networktest.NewNetwork("down", "10.0.1.0/24", ""), 1, metav1.ConditionFalse, samplecrdv1.ReasonNeutronUnavailable)
	f := newFixture(t, ready, down, networktest.NewNetwork("new", "10.0.2.0/24", ""))
	m := f.controller.metrics

	if got := networktest.Series(t, m, "network_controller_networks"); len(got) != 0 {
		t.Errorf("a replica that does not lead exports %d network_controller_networks series, want none", len(got))
	}
	m.SetLeader(true)
	got := networktest.Series(t, m, "network_controller_networks")
	if want := len(samplecrdv1.ReadyReasons) + 2; len(got) != want {
		t.Errorf("%d network_controller_networks series, want %d (every reason, Pending and Paused)", len(got), want)
	}
	for key, want := range map[string]float64{
		"Provisioned/True": 1, "NeutronUnavailable/False": 1, "Pending/Unknown": 1,
		"InvalidSpec/False": 0, "Imported/True": 0, "KeystoneUnavailable/False": 0, "Paused/Unknown": 0,
	} {
		if s, ok := got[key]; !ok || s.GetGauge().GetValue() != want {
			t.Errorf("network_controller_networks{reason/status=%s} = %v (present %v), want %v", key, s.GetGauge().GetValue(), ok, want)
		}
	}
	if leader := networktest.Series(t, m, "network_controller_leader")[""]; leader.GetGauge().GetValue() != 1 {
		t.Errorf("network_controller_leader = %v while leading, want 1", leader.GetGauge().GetValue())
	}
	m.SetLeader(false)
	if got := networktest.Series(t, m, "network_controller_networks"); len(got) != 0 {
		t.Errorf("after losing the lead %d network_controller_networks series remain, want none", len(got))
	}
}

// TestTimeToReadyObservedOnce: the worker that makes a Network Ready records its wait,
// once; syncs that find it Ready record nothing more.
func TestTimeToReadyObservedOnce(t *testing.T) {
	n := networktest.NewNetwork("timed", "10.0.0.0/24", "")
	n.CreationTimestamp = metav1.NewTime(time.Now())
	f := newFixture(t, n)
	f.startLeading()
	f.controller.handleAdd(n, false)
	if err := f.sync(n); err != nil {
		t.Fatal(err)
	}
	ready := f.Refresh(n.Namespace, n.Name)
	f.controller.handleUpdate(n, ready)
	if err := f.sync(ready); err != nil {
		t.Fatal(err)
	}
	got := networktest.Series(t, f.controller.metrics, "network_controller_time_to_ready_seconds")
	if c := got[metrics.ChangeCreate].GetHistogram().GetSampleCount(); c != 1 {
		t.Errorf("time_to_ready{change=create} count = %d, want 1", c)
	}
	if s, ok := got[metrics.ChangeUpdate]; !ok || s.GetHistogram().GetSampleCount() != 0 {
		t.Errorf("time_to_ready{change=update} = %v (present %v), want present at 0", s, ok)
	}
}

// TestTimeToReadyAfterARetry: a Network that failed first is timed from when it was seen,
// when a retry makes it Ready.
func TestTimeToReadyAfterARetry(t *testing.T) {
	n := networktest.NewNetwork("retried", "10.0.0.0/24", "")
	n.CreationTimestamp = metav1.NewTime(time.Now())
	f := newFixture(t, n)
	f.startLeading()
	f.controller.handleAdd(n, false)
	f.Neutron.FailWith("create network", &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"})
	if err := f.sync(n); err == nil {
		t.Fatal("the first sync did not fail")
	}
	failed := f.Refresh(n.Namespace, n.Name)
	f.controller.handleUpdate(n, failed)
	f.Neutron.FailWith("create network", nil)
	if err := f.sync(failed); err != nil {
		t.Fatal(err)
	}
	if c := networktest.Series(t, f.controller.metrics, "network_controller_time_to_ready_seconds")[metrics.ChangeCreate].GetHistogram().GetSampleCount(); c != 1 {
		t.Errorf("time_to_ready{change=create} count = %d after a retry made the Network Ready, want 1", c)
	}
}

// TestTimeToReadyWhenTheInformerIsFirst: the informer may deliver the Ready status, and end
// the wait, before the worker hears back from its write; the wait still counts, once.
func TestTimeToReadyWhenTheInformerIsFirst(t *testing.T) {
	n := networktest.NewNetwork("raced", "10.0.0.0/24", "")
	n.CreationTimestamp = metav1.NewTime(time.Now())
	f := newFixture(t, n)
	f.startLeading()
	f.controller.handleAdd(n, false)
	delivered := 0
	f.Client.PrependReactor("update", "networks", func(action k8stesting.Action) (bool, runtime.Object, error) {
		if written := action.(k8stesting.UpdateAction).GetObject().(*samplecrdv1.Network); action.GetSubresource() == "status" && written.IsReady() {
			f.controller.reconciler.Saw(written)
			delivered++
		}
		return false, nil, nil
	})
	if err := f.sync(n); err != nil {
		t.Fatal(err)
	}
	if delivered != 1 {
		t.Fatalf("the Ready status write was delivered %d times before the worker heard back, want 1", delivered)
	}
	if c := networktest.Series(t, f.controller.metrics, "network_controller_time_to_ready_seconds")[metrics.ChangeCreate].GetHistogram().GetSampleCount(); c != 1 {
		t.Errorf("time_to_ready{change=create} count = %d, want 1", c)
	}
}

// queueWaits returns how many items of each class the metrics saw handed out.
func queueWaits(t *testing.T, m *metrics.Metrics) map[string]uint64 {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, f := range families {
		if f.GetName() != "network_controller_workqueue_wait_seconds" {
			continue
		}
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "class" {
					out[l.GetValue()] = s.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	return out
}

// takeOne hands out one queued key and marks it done.
func takeOne(t *testing.T, c *Controller) cache.ObjectName {
	t.Helper()
	key, shutdown := c.workqueue.Get()
	if shutdown {
		t.Fatal("queue shut down")
	}
	c.workqueue.Done(key)
	return key
}

func TestQueuedNetworksCarryWhyTheyWereQueued(t *testing.T) {
	f := newFixture(t)
	c := f.controller
	listed := networktest.NewNetwork("listed", "10.0.0.0/24", "")
	edited := networktest.NewNetwork("edited", "10.0.1.0/24", "")
	changed := edited.DeepCopy()
	changed.ResourceVersion = "2"

	c.handleAdd(listed, true)
	c.handleUpdate(edited, changed)
	takeOne(t, c)
	takeOne(t, c)
	c.workqueue.AddRateLimited(cache.MetaObjectToName(listed))
	takeOne(t, c)

	want := map[string]uint64{"user_change": 1, "initial_list": 1, "resync": 0, "retry": 1}
	got := queueWaits(t, c.metrics)
	for class, n := range want {
		if got[class] != n {
			t.Errorf("queue wait of %s observed %d times, want %d (all: %v)", class, got[class], n, got)
		}
	}
}

func TestUserChangeGoesBeforeTheInitialList(t *testing.T) {
	f := newFixture(t)
	c := f.controller
	for _, name := range []string{"a", "b", "c"} {
		c.handleAdd(networktest.NewNetwork(name, "10.0.0.0/24", ""), true)
	}
	c.handleAdd(networktest.NewNetwork("new", "10.0.9.0/24", ""), false)
	if key := takeOne(t, c); key.Name != "new" {
		t.Fatalf("first key handed out = %v, want the Network a user just created, not the initial list", key)
	}
}

func TestOverBudgetNetworkIsDeferredNotFailed(t *testing.T) {
	network := networktest.NewNetwork("busy", "10.2.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	key := cache.MetaObjectToName(network)
	f.Neutron.FailWith("create subnet", &neutron.ThrottledError{Op: "create subnet", Delay: 10 * time.Millisecond})

	f.controller.workqueue.addFor(key, fairqueue.UserChange)
	f.controller.processNextWorkItem(f.Ctx)

	if n := f.controller.workqueue.NumRequeues(key); n != 0 {
		t.Errorf("NumRequeues = %d after a deferral, want 0: it is not a failure", n)
	}
	if c := f.Refresh("default", "busy").ReadyCondition(); c != nil && c.Status == metav1.ConditionFalse {
		t.Errorf("Ready = False/%s after a deferral, want no failure recorded", c.Reason)
	}
	for _, e := range f.Events() {
		if strings.HasPrefix(e, "Warning") {
			t.Errorf("Event %q after a deferral, want no warning", e)
		}
	}

	// The key comes back by itself after the delay, and goes on from where it stopped.
	f.Neutron.FailWith("create subnet", nil)
	f.Neutron.ClearCalls()
	f.controller.processNextWorkItem(f.Ctx)
	if c := f.Refresh("default", "busy").ReadyCondition(); c == nil || c.Status != metav1.ConditionTrue {
		t.Fatalf("Ready = %v after the deferred retry, want True", c)
	}
	if calls := f.Neutron.Calls(); len(calls) != 1 || calls[0] != "create subnet" {
		t.Errorf("deferred retry made %v, want only [create subnet]: the network it made before is known", calls)
	}
	if got := queueWaits(t, f.controller.metrics)["retry"]; got != 1 {
		t.Errorf("retry class observed %d times, want 1 (the deferred key)", got)
	}
}

func TestCachedNetworksFollowTheInformer(t *testing.T) {
	f := newFixture(t)
	c := f.controller
	a, b := networktest.NewNetwork("a", "10.0.0.0/24", ""), networktest.NewNetwork("b", "10.0.1.0/24", "")
	c.handleAdd(a, true)
	c.handleAdd(b, false)
	c.handleUpdate(b, b)
	c.handleDelete(cache.DeletedFinalStateUnknown{Key: "default/a", Obj: a})

	families, err := c.metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		if fam.GetName() == "network_controller_cached_networks" {
			if got := fam.GetMetric()[0].GetGauge().GetValue(); got != 1 {
				t.Errorf("cached_networks = %v after 2 adds and 1 delete, want 1", got)
			}
			return
		}
	}
	t.Error("no network_controller_cached_networks series")
}

// A deferred Network's ticket waits for its next run; any other run's is released.
func TestBudgetTicketsWaitForTheNextRun(t *testing.T) {
	var tickets budgetTickets
	key := cache.ObjectName{Namespace: "ns", Name: "a"}
	first := tickets.take(key)
	if first == nil || first.Held() {
		t.Fatalf("a Network without a ticket got %v, want a new empty one", first)
	}
	tickets.keep(key, first)
	if got := tickets.take(key); got != first {
		t.Error("the next run did not get the ticket kept for it")
	}
	if got := tickets.take(key); got == first {
		t.Error("a ticket was handed out twice")
	}
	for i := range releaseTicketsAbove + 1 {
		tickets.keep(cache.ObjectName{Namespace: "ns", Name: strings.Repeat("x", i+1)}, &neutronclient.Ticket{})
	}
	for i := range releaseTicketsAbove + 1 {
		tickets.take(cache.ObjectName{Namespace: "ns", Name: strings.Repeat("x", i+1)})
	}
	if tickets.byKey != nil || tickets.peak != 0 {
		t.Errorf("emptied after %d tickets: map %v, peak %d; want made anew", releaseTicketsAbove+1, tickets.byKey != nil, tickets.peak)
	}
}

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

func withIdentity(n *samplecrdv1.Network, identity string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}
	return n
}
