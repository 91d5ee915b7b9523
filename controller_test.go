package main

import (
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/networktest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/neutron"
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
