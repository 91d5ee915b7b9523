//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A Neutron network deleted by hand is recreated; the Network is Ready
// again with the new network's ID, and a NeutronDrift Event says what happened.
func TestDriftDeletedNetworkIsRecreated(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=2s"}})

	CreateNetwork(t, ns, "drifty", "10.70.0.0/24", "10.70.0.1")
	before := WaitReady(t, ns, "drifty", 60*time.Second)
	owner := OwnerOf(ctrl.ClusterID, before)
	// Let the controller settle (a resync finding nothing to do), so that what repairs the
	// change below is the Neutron resync, not a reconcile still in flight.
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")

	// Neutron deletes the subnet with the network.
	MustNeutron(t, http.MethodDelete, "v2.0/networks/"+before.Status.NetworkID, nil, nil, http.StatusNoContent)

	after := WaitNetwork(t, ns, "drifty", 60*time.Second, "Ready with a new network", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.NetworkID == before.Status.NetworkID || n.Status.SubnetID == before.Status.SubnetID {
			return fmt.Errorf("%s networkID=%s subnetID=%s", DescribeReady(n), n.Status.NetworkID, n.Status.SubnetID)
		}
		return nil
	})
	// The resync that notices may see the network gone, or first its subnet, which Neutron
	// deleted with it: either is the drift Event.
	Eventually(t, 30*time.Second, 500*time.Millisecond, "a Warning NeutronDrift naming the network or its subnet", func() error {
		var seen []string
		for _, e := range Events(t, ns, "drifty") {
			if e.Type == "Warning" && e.Reason == "NeutronDrift" &&
				(strings.Contains(e.Message, before.Status.NetworkID) || strings.Contains(e.Message, before.Status.SubnetID)) {
				return nil
			}
			seen = append(seen, e.Reason+": "+e.Message)
		}
		return fmt.Errorf("events so far: %q", seen)
	})

	nets, _, err := NeutronOf(t, owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 1 || nets[0].ID != after.Status.NetworkID {
		t.Errorf("Neutron networks of the owner = %v, want exactly [%s]", ids(nets), after.Status.NetworkID)
	}
	sub, ok := GetSubnet(t, after.Status.SubnetID)
	if !ok || sub.NetworkID != after.Status.NetworkID || sub.CIDR != "10.70.0.0/24" || sub.GatewayIP != "10.70.0.1" {
		t.Errorf("recreated subnet = %+v (found %v), want 10.70.0.0/24 gateway 10.70.0.1 on %s", sub, ok, after.Status.NetworkID)
	}
}

// A gateway changed by hand in Neutron is restored on the same subnet.
func TestDriftChangedGatewayIsRestored(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=2s"}})

	CreateNetwork(t, ns, "drifty-gw", "10.71.0.0/24", "")
	before := WaitReady(t, ns, "drifty-gw", 60*time.Second)
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")

	MustNeutron(t, http.MethodPut, "v2.0/subnets/"+before.Status.SubnetID, map[string]any{"subnet": map[string]any{
		"gateway_ip": "10.71.0.100",
		"allocation_pools": []map[string]string{
			{"start": "10.71.0.1", "end": "10.71.0.99"},
			{"start": "10.71.0.101", "end": "10.71.0.254"},
		},
	}}, nil, http.StatusOK)
	if sub, _ := GetSubnet(t, before.Status.SubnetID); sub.GatewayIP != "10.71.0.100" {
		t.Fatalf("changing the gateway by hand did not take: %s", sub.GatewayIP)
	}

	Eventually(t, 60*time.Second, 500*time.Millisecond, "gateway restored in Neutron", func() error {
		sub, ok := GetSubnet(t, before.Status.SubnetID)
		if !ok {
			return fmt.Errorf("subnet %s is gone", before.Status.SubnetID)
		}
		if sub.GatewayIP != "10.71.0.1" {
			return fmt.Errorf("gateway is %s", sub.GatewayIP)
		}
		if len(sub.AllocationPools) != 1 || sub.AllocationPools[0].Start != "10.71.0.2" || sub.AllocationPools[0].End != "10.71.0.254" {
			return fmt.Errorf("allocation pools are %+v, want 10.71.0.2-10.71.0.254", sub.AllocationPools)
		}
		return nil
	})
	WaitEvent(t, ns, "drifty-gw", "Warning", "NeutronDrift", "10.71.0.100", 30*time.Second)
	WaitEvent(t, ns, "drifty-gw", "Normal", "GatewayUpdated", "from 10.71.0.100 to 10.71.0.1", 30*time.Second)
	after := WaitReady(t, ns, "drifty-gw", 30*time.Second)
	if after.Status.SubnetID != before.Status.SubnetID || after.Status.NetworkID != before.Status.NetworkID || after.Status.Gateway != "10.71.0.1" {
		t.Errorf("status after the repair: network %s subnet %s gateway %s; want %s %s 10.71.0.1",
			after.Status.NetworkID, after.Status.SubnetID, after.Status.Gateway, before.Status.NetworkID, before.Status.SubnetID)
	}
}
