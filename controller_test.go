package main

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

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
