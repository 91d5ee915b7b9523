//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A project over its Neutron budget has its Networks deferred, not failed: with a budget
// of 2 requests per second, four Networks created at once all become Ready, never show
// Ready=False or a Warning, and cost the same three calls each as without the budget
// (what a deferred run had done is not looked up again).
func TestProjectBudgetDefersWithoutFailing(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-project-qps=2", "-neutron-project-burst=1"}})
	ctrl.WaitReadyz(60 * time.Second)

	names := []string{"budget-0", "budget-1", "budget-2", "budget-3"}
	for i, name := range names {
		CreateNetwork(t, ns, name, fmt.Sprintf("10.61.%d.0/24", i), "")
	}
	for _, name := range names {
		WaitReady(t, ns, name, 120*time.Second)
	}

	for _, name := range names {
		for _, e := range Events(t, ns, name) {
			if e.Type != "Normal" {
				t.Errorf("Network %s has a %s Event %s: %q; a deferral is not a failure", name, e.Type, e.Reason, e.Message)
			}
		}
		if c := GetNetwork(t, ns, name).ReadyCondition(); c.Status != metav1.ConditionTrue || c.ObservedGeneration != 1 {
			t.Errorf("Network %s: Ready %s/%s at generation %d", name, c.Status, c.Reason, c.ObservedGeneration)
		}
	}
	deferred, err := ctrl.Metric("network_controller_reconcile_total", "result=deferred")
	if err != nil || deferred == 0 {
		t.Errorf("reconcile_total{result=deferred} = %v (%v), want > 0: 12 calls at 2 per second must defer some", deferred, err)
	}
	if wait, err := ctrl.Metric("network_controller_neutron_rate_limit_wait_seconds_total", "limiter=project"); err != nil || wait <= 0 {
		t.Errorf("rate-limit wait of the project limiter = %v (%v), want > 0", wait, err)
	}
	if errs, _ := ctrl.Metric("network_controller_reconcile_total", "result=error"); errs != 0 {
		t.Errorf("reconcile_total{result=error} = %v, want 0", errs)
	}
	// Counted from the process's start: the store's fill (one list of networks, one of
	// subnets) may come after /readyz, and pings depend on how often /readyz was asked.
	want := map[string]float64{"create network": 4, "tag network": 4, "create subnet": 4, "list networks": 1, "list subnets": 1}
	var counted float64
	for op, n := range want {
		got, err := ctrl.Metric("network_controller_neutron_requests_total", "operation="+op)
		if err != nil || got != n {
			t.Errorf("%s calls = %v (%v), want %v: a deferral must not add calls", op, got, err, n)
		}
		counted += got
	}
	total, err := ctrl.Metric("network_controller_neutron_requests_total")
	if err != nil {
		t.Fatal(err)
	}
	pings, _ := ctrl.Metric("network_controller_neutron_requests_total", "operation=ping")
	if other := total - pings - counted; other != 0 {
		t.Errorf("%v Neutron calls of other operations, want none", other)
	}
}
