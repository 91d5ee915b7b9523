package main

import (
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/networktest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

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
