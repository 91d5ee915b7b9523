//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Each Network is compared with Neutron on its own period. With the controller's default
// at an hour, a Network of a one-minute period has DHCP turned off by hand repaired within
// its period, and its lastSyncTime advances by each check, while one on the default period
// keeps the hand change and its lastSyncTime. A Network under the Report policy keeps its
// hand change, shows it (the attribute and both values) in Drifted, an Event and the metric,
// and is repaired once its policy is Repair.
func TestDriftChecksOnEachNetworksOwnTerms(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=1h"}})
	minute := &metav1.Duration{Duration: time.Minute}
	specs := map[string]samplecrdv1.NetworkSpec{
		"fast":    {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.71.0.0/24"}, DriftCheck: &samplecrdv1.DriftCheck{Period: minute}},
		"default": {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.71.1.0/24"}},
		"watched": {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.71.2.0/24"}, DriftCheck: &samplecrdv1.DriftCheck{Period: minute, Policy: samplecrdv1.DriftReport}},
	}
	ready := map[string]*samplecrdv1.Network{}
	for name, spec := range specs {
		CreateNetworkWithSpec(t, ns, name, spec)
	}
	for name := range specs {
		ready[name] = WaitReady(t, ns, name, 60*time.Second)
		if ready[name].Status.LastSyncTime == nil {
			t.Fatalf("%s: Ready without status.lastSyncTime", name)
		}
	}
	if c := meta.FindStatusCondition(ready["watched"].Status.Conditions, samplecrdv1.ConditionDrifted); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("watched, Ready under Report: Drifted = %+v, want False", c)
	}

	// A new Network's first check comes half a period to one and a half after its creation, on its
	// period's grid; from then on, one each period.
	for _, name := range []string{"fast", "watched"} {
		ready[name] = waitChecked(t, ns, name, ready[name].Status.LastSyncTime, 150*time.Second)
	}

	// DHCP off by hand on all three subnets.
	for _, n := range ready {
		MustNeutron(t, http.MethodPut, "v2.0/subnets/"+n.Status.SubnetID, map[string]any{"subnet": map[string]any{"enable_dhcp": false}}, nil, http.StatusOK)
	}
	changed := time.Now()

	// Within the period, and the pass after the check (on a busy machine, some seconds).
	fast := WaitNetwork(t, ns, "fast", 90*time.Second, "DHCP repaired by its one-minute check", func(n *samplecrdv1.Network) error {
		if !subnetDHCP(t, n.Status.SubnetID) {
			return fmt.Errorf("DHCP still off in Neutron, lastSyncTime %v", n.Status.LastSyncTime)
		}
		if !n.Status.LastSyncTime.After(ready["fast"].Status.LastSyncTime.Time) {
			return fmt.Errorf("lastSyncTime %v did not advance", n.Status.LastSyncTime)
		}
		return nil
	})
	t.Logf("fast repaired %s after the hand change; lastSyncTime %v", time.Since(changed).Round(time.Second), fast.Status.LastSyncTime)
	WaitEvent(t, ns, "fast", "Warning", "NeutronDrift", "dhcp from off to on", 30*time.Second)

	watched := WaitNetwork(t, ns, "watched", 90*time.Second, "Drifted True naming DHCP's two values", func(n *samplecrdv1.Network) error {
		c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionDrifted)
		if c == nil || c.Status != metav1.ConditionTrue || !strings.Contains(c.Message, "dhcp is off in Neutron, on in the spec") {
			return fmt.Errorf("Drifted = %+v", c)
		}
		return nil
	})
	WaitEvent(t, ns, "watched", "Warning", "DriftReported", "dhcp is off in Neutron, on in the spec", 30*time.Second)
	if v, err := ctrl.Metric("network_controller_networks_drifted", "namespace="+ns); err != nil || v != 1 {
		t.Errorf("network_controller_networks_drifted{namespace=%s} = %v (%v), want 1", ns, v, err)
	}

	// One more check of each one-minute Network: lastSyncTime advances, the report stands
	// without another Event, nothing is repaired under Report.
	for _, name := range []string{"fast", "watched"} {
		waitChecked(t, ns, name, GetNetwork(t, ns, name).Status.LastSyncTime, 90*time.Second)
	}
	if subnetDHCP(t, watched.Status.SubnetID) {
		t.Errorf("watched: DHCP is on again in Neutron: repaired under Report")
	}
	if n := countEvents(t, ns, "watched", "DriftReported"); n != 1 {
		t.Errorf("watched: %d DriftReported Events after two checks of one drift, want 1", n)
	}

	// The default one was not checked: its hand change stands, its lastSyncTime too.
	def := GetNetwork(t, ns, "default")
	if subnetDHCP(t, def.Status.SubnetID) {
		t.Errorf("default: DHCP is on again in Neutron, though its check (an hour) was not due")
	}
	if !def.Status.LastSyncTime.Equal(ready["default"].Status.LastSyncTime) {
		t.Errorf("default: lastSyncTime moved from %v to %v without a check", ready["default"].Status.LastSyncTime, def.Status.LastSyncTime)
	}

	// Repair: carried out at once (within one period), the report gone.
	switched := time.Now()
	UpdateNetworkSpec(t, ns, "watched", func(s *samplecrdv1.NetworkSpec) { s.DriftCheck.Policy = samplecrdv1.DriftRepair })
	WaitNetwork(t, ns, "watched", 60*time.Second, "repaired once Repair is set", func(n *samplecrdv1.Network) error {
		if !subnetDHCP(t, n.Status.SubnetID) || meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionDrifted) != nil || !n.IsReady() {
			return fmt.Errorf("DHCP on %v, %s, Drifted %+v", subnetDHCP(t, n.Status.SubnetID), DescribeReady(n),
				meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionDrifted))
		}
		return nil
	})
	t.Logf("watched repaired %s after Repair was set", time.Since(switched).Round(time.Second))
	Eventually(t, 30*time.Second, time.Second, "network_controller_networks_drifted back to no series", func() error {
		if v, err := ctrl.Metric("network_controller_networks_drifted", "namespace="+ns); err == nil {
			return fmt.Errorf("still %v", v)
		}
		return nil
	})
}

// waitChecked waits until the Network's lastSyncTime is after last: a check compared it.
func waitChecked(t testing.TB, ns, name string, last *metav1.Time, timeout time.Duration) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, timeout, "lastSyncTime advanced by a check", func(n *samplecrdv1.Network) error {
		if !n.Status.LastSyncTime.After(last.Time) {
			return fmt.Errorf("lastSyncTime %v", n.Status.LastSyncTime)
		}
		return nil
	})
}

// subnetDHCP says whether Neutron runs DHCP on the subnet, as its admin reads it.
func subnetDHCP(t testing.TB, subnetID string) bool {
	t.Helper()
	s, ok := GetSubnet(t, subnetID)
	if !ok {
		t.Fatalf("subnet %s is gone", subnetID)
	}
	return s.EnableDHCP
}

func countEvents(t testing.TB, ns, name, reason string) int {
	n := 0
	for _, e := range Events(t, ns, name) {
		if e.Reason == reason {
			n += int(max(e.Count, 1))
		}
	}
	return n
}
