//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A dual-stack Network is one Neutron network with an IPv4 and an IPv6 (SLAAC) subnet,
// each named after its item; a change made by hand to either is repaired, and a subnet
// deleted by hand comes back.
func TestDualStackNetwork(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=2s"}})
	v6 := listItem("v6", "2001:db8:81::/64")
	v6.IPv6AddressMode, v6.IPv6RAMode = samplecrdv1.IPv6ModeSLAAC, samplecrdv1.IPv6ModeSLAAC
	CreateNetworkWithSpec(t, ns, "dual", samplecrdv1.NetworkSpec{Subnets: []samplecrdv1.NetworkSubnet{listItem("v4", "10.81.0.0/24"), v6}})
	n := waitItemsReady(t, ns, "dual", 1, map[string]string{"v4": "10.81.0.0/24", "v6": "2001:db8:81::/64"})
	owner := OwnerOf(ctrl.ClusterID, n)
	for _, item := range n.Status.Subnets {
		sub, _ := GetSubnet(t, item.SubnetID)
		if sub.NetworkID != n.Status.NetworkID || sub.Name != owner.SubnetName(item.Name) {
			t.Errorf("item %s: Neutron subnet %s on network %s named %q, want on %s named %q",
				item.Name, sub.ID, sub.NetworkID, sub.Name, n.Status.NetworkID, owner.SubnetName(item.Name))
		}
	}
	if sub, _ := GetSubnet(t, statusItem(t, n, "v6").SubnetID); sub.IPv6AddressMode != "slaac" || sub.IPv6RAMode != "slaac" || sub.IPVersion != 6 {
		t.Errorf("v6 subnet %s: IPv%d, modes %q/%q, want IPv6 slaac/slaac", sub.ID, sub.IPVersion, sub.IPv6AddressMode, sub.IPv6RAMode)
	}

	// Drift on each: DNS servers added by hand on v6 are removed; v4 deleted by hand is
	// made again, on the same network.
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")
	v6ID, v4ID := statusItem(t, n, "v6").SubnetID, statusItem(t, n, "v4").SubnetID
	MustNeutron(t, http.MethodPut, "v2.0/subnets/"+v6ID, map[string]any{"subnet": map[string]any{"dns_nameservers": []string{"2001:db8::53"}}}, nil, http.StatusOK)
	MustNeutron(t, http.MethodDelete, "v2.0/subnets/"+v4ID, nil, nil, http.StatusNoContent)
	Eventually(t, 60*time.Second, 500*time.Millisecond, "both subnets repaired", func() error {
		got := GetNetwork(t, ns, "dual")
		if sub, ok := GetSubnet(t, v6ID); !ok || len(sub.DNSNameservers) != 0 {
			return fmt.Errorf("v6 subnet %s: found %v, DNS %v", v6ID, ok, sub.DNSNameservers)
		}
		v4 := statusItem(t, got, "v4")
		if v4.SubnetID == v4ID || !got.IsReady() {
			return fmt.Errorf("v4 is still on subnet %s (%s)", v4.SubnetID, DescribeReady(got))
		}
		if sub, ok := GetSubnet(t, v4.SubnetID); !ok || sub.NetworkID != n.Status.NetworkID || sub.CIDR != "10.81.0.0/24" {
			return fmt.Errorf("v4's new subnet %s: found %v, on %s, %s", v4.SubnetID, ok, sub.NetworkID, sub.CIDR)
		}
		return nil
	})
	WaitEvent(t, ns, "dual", "Warning", "NeutronDrift", v4ID, 30*time.Second)
}

// An item added, changed in place and removed, one at a time: each touches only its own
// subnet. A removed item whose subnet a port still uses stays in status, Ready=False
// SubnetInUse naming the port, until the port goes.
func TestSubnetItemsAddedChangedRemoved(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-retry-max-delay=3s"}})
	a, b := listItem("a", "10.82.0.0/24"), listItem("b", "10.82.1.0/24")
	CreateNetworkWithSpec(t, ns, "items", samplecrdv1.NetworkSpec{Subnets: []samplecrdv1.NetworkSubnet{a}})
	first := waitItemsReady(t, ns, "items", 1, map[string]string{"a": "10.82.0.0/24"})
	aID := statusItem(t, first, "a").SubnetID

	patched := patchItems(t, ns, "items", a, b)
	added := waitItemsReady(t, ns, "items", patched.Generation, map[string]string{"a": "10.82.0.0/24", "b": "10.82.1.0/24"})
	bID := statusItem(t, added, "b").SubnetID
	if statusItem(t, added, "a").SubnetID != aID || added.Status.NetworkID != first.Status.NetworkID {
		t.Errorf("adding b moved a or the network: %+v", added.Status)
	}
	WaitEvent(t, ns, "items", "Normal", "SubnetCreated", "for item b", 30*time.Second)

	b.DNSNameservers = []string{"10.82.1.53"}
	patched = patchItems(t, ns, "items", a, b)
	changed := waitItemsReady(t, ns, "items", patched.Generation, map[string]string{"a": "10.82.0.0/24", "b": "10.82.1.0/24"})
	if statusItem(t, changed, "b").SubnetID != bID {
		t.Errorf("changing b's DNS servers replaced its subnet %s with %s", bID, statusItem(t, changed, "b").SubnetID)
	}
	if sub, _ := GetSubnet(t, bID); strings.Join(sub.DNSNameservers, ",") != "10.82.1.53" {
		t.Errorf("b's subnet %s has DNS servers %v, want 10.82.1.53", bID, sub.DNSNameservers)
	}

	port := CreatePort(t, changed.Status.NetworkID, bID)
	patched = patchItems(t, ns, "items", a)
	blocked := WaitNetwork(t, ns, "items", 60*time.Second, "SubnetInUse naming the port", func(n *samplecrdv1.Network) error {
		c := n.ReadyCondition()
		if n.Generation < patched.Generation || c == nil || c.Reason != samplecrdv1.ReasonSubnetInUse || !strings.Contains(c.Message, port) {
			return fmt.Errorf("%s", DescribeReady(n))
		}
		return nil
	})
	if item := findItem(blocked, "b"); item == nil || item.SubnetID != bID {
		t.Errorf("while its port stays, b should stay in status.subnets: %+v", blocked.Status.Subnets)
	}
	if _, ok := GetSubnet(t, bID); !ok {
		t.Fatalf("b's subnet %s deleted while a port was on it", bID)
	}
	WaitEvent(t, ns, "items", "Warning", samplecrdv1.ReasonSubnetInUse, port, 30*time.Second)

	MustNeutron(t, http.MethodDelete, "v2.0/ports/"+port, nil, nil, http.StatusNoContent)
	waitItemsReady(t, ns, "items", patched.Generation, map[string]string{"a": "10.82.0.0/24"})
	if _, ok := GetSubnet(t, bID); ok {
		t.Errorf("b's subnet %s still exists after b was removed and its port went", bID)
	}
	if _, ok := GetSubnet(t, aID); !ok {
		t.Errorf("a's subnet %s went away with b", aID)
	}
}

// A Network moved from the one-subnet form to the list keeps its subnet: same ID, renamed
// for its item, no create.
func TestOneSubnetNetworkMovedToList(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})
	CreateNetwork(t, ns, "move", "10.83.0.0/24", "")
	before := WaitReady(t, ns, "move", 60*time.Second)

	_, nets := Clients(t)
	patched, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), "move", types.MergePatchType,
		[]byte(`{"spec":{"cidr":null,"subnets":[{"name":"main","cidr":"10.83.0.0/24"}]}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("moving %s/move to the list form (the CRD must admit it): %v", ns, err)
	}
	after := waitItemsReady(t, ns, "move", patched.Generation, map[string]string{"main": "10.83.0.0/24"})
	if got := statusItem(t, after, "main").SubnetID; got != before.Status.SubnetID || after.Status.NetworkID != before.Status.NetworkID {
		t.Errorf("after the move: network %s subnet %s, want the same %s %s", after.Status.NetworkID, got, before.Status.NetworkID, before.Status.SubnetID)
	}
	if after.Status.SubnetID != "" {
		t.Errorf("status.subnetID = %q after the move, want it empty (it describes the one-subnet form)", after.Status.SubnetID)
	}
	if sub, _ := GetSubnet(t, before.Status.SubnetID); sub.Name != OwnerOf(ctrl.ClusterID, after).SubnetName("main") {
		t.Errorf("subnet %s is named %q after the move, want the item's name", sub.ID, sub.Name)
	}
	WaitEvent(t, ns, "move", "Normal", "SubnetKept", "for item main", 30*time.Second)
	for _, e := range Events(t, ns, "move") {
		if e.Reason == "SubnetCreated" && strings.Contains(e.Message, "for item main") {
			t.Errorf("the move created a subnet: %s", e.Message)
		}
	}
}

func listItem(name, cidr string) samplecrdv1.NetworkSubnet {
	return samplecrdv1.NetworkSubnet{Name: name, SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}}
}

// patchItems replaces the Network's spec.subnets with items and returns the Network as
// patched.
func patchItems(t *testing.T, ns, name string, items ...samplecrdv1.NetworkSubnet) *samplecrdv1.Network {
	t.Helper()
	n := GetNetwork(t, ns, name)
	n.Spec.Subnets = items
	_, nets := Clients(t)
	updated, err := nets.SamplecrdV1().Networks(ns).Update(Ctx(t, 30*time.Second), n, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("updating the items of %s/%s: %v", ns, name, err)
	}
	return updated
}

// waitItemsReady waits until the Network is Ready for generation with exactly these
// items (name to CIDR) in status.subnets, each on a Neutron subnet of that CIDR on its
// network.
func waitItemsReady(t *testing.T, ns, name string, generation int64, cidrs map[string]string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 90*time.Second, "Ready with its items", func(n *samplecrdv1.Network) error {
		if n.Generation < generation || !n.IsReady() || n.Status.ObservedGeneration < generation {
			return fmt.Errorf("%s (want generation %d)", DescribeReady(n), generation)
		}
		if len(n.Status.Subnets) != len(cidrs) {
			return fmt.Errorf("status.subnets %+v, want %d items", n.Status.Subnets, len(cidrs))
		}
		for _, item := range n.Status.Subnets {
			sub, ok := GetSubnet(t, item.SubnetID)
			if !ok || item.CIDR != cidrs[item.Name] || sub.CIDR != item.CIDR || sub.NetworkID != n.Status.NetworkID {
				return fmt.Errorf("item %+v: Neutron subnet found %v, %s on %s; want %s", item, ok, sub.CIDR, sub.NetworkID, cidrs[item.Name])
			}
		}
		return nil
	})
}

func statusItem(t *testing.T, n *samplecrdv1.Network, name string) samplecrdv1.SubnetStatus {
	t.Helper()
	item := findItem(n, name)
	if item == nil {
		t.Fatalf("Network %s/%s has no item %s in status.subnets: %+v", n.Namespace, n.Name, name, n.Status.Subnets)
	}
	return *item
}
