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

// Explicit pools and a subnet without gateway are realized exactly, the gateway mode and
// the pools change in place on the same subnet (Neutron takes the new pools and gateway in
// one PUT), and pools an admin changes in Neutron come back.
func TestSubnetPoolsAndGatewayMode(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=2s"}})
	_, nets := Clients(t)

	created, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: "pools", Namespace: ns},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.76.0.0/24", GatewayMode: samplecrdv1.GatewayModeNone,
			AllocationPools: []samplecrdv1.AllocationPool{{Start: "10.76.0.100", End: "10.76.0.199"}, {Start: "10.76.0.10", End: "10.76.0.19"}}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/pools: %v", ns, err)
	}
	first := waitSubnetMatchesSpec(t, ns, "pools", created.Generation)
	wantSubnet(t, first, "", "10.76.0.10-10.76.0.19 10.76.0.100-10.76.0.199")

	for _, step := range []struct {
		patch, reason, event, gateway, pools string
	}{
		{`{"spec":{"gatewayMode":"Automatic","gateway":"10.76.0.50"}}`, "GatewayUpdated", "gateway from none to 10.76.0.50",
			"10.76.0.50", "10.76.0.10-10.76.0.19 10.76.0.100-10.76.0.199"},
		{`{"spec":{"allocationPools":[{"start":"10.76.0.51","end":"10.76.0.254"},{"start":"10.76.0.2","end":"10.76.0.49"}]}}`,
			"SubnetUpdated", "allocation pools from", "10.76.0.50", "10.76.0.2-10.76.0.49 10.76.0.51-10.76.0.254"},
		// The old gateway's address goes into the computed pool in the same PUT.
		{`{"spec":{"gatewayMode":"None","gateway":null,"allocationPools":null}}`, "GatewayUpdated", "gateway from 10.76.0.50 to none",
			"", "10.76.0.1-10.76.0.254"},
	} {
		patched, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), "pools", types.MergePatchType,
			[]byte(step.patch), metav1.PatchOptions{})
		if err != nil {
			t.Fatalf("patching %s/pools with %s: %v", ns, step.patch, err)
		}
		after := waitSubnetMatchesSpec(t, ns, "pools", patched.Generation)
		if after.Status.SubnetID != first.Status.SubnetID || after.Status.NetworkID != first.Status.NetworkID {
			t.Errorf("after %s: network %s subnet %s, want the same %s %s", step.patch,
				after.Status.NetworkID, after.Status.SubnetID, first.Status.NetworkID, first.Status.SubnetID)
		}
		wantSubnet(t, after, step.gateway, step.pools)
		WaitEvent(t, ns, "pools", "Normal", step.reason, step.event, 30*time.Second)
	}

	// An admin narrows the pools in Neutron: the resync puts the computed pool back.
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")
	MustNeutron(t, http.MethodPut, "v2.0/subnets/"+first.Status.SubnetID, map[string]any{"subnet": map[string]any{
		"allocation_pools": []map[string]string{{"start": "10.76.0.5", "end": "10.76.0.9"}},
	}}, nil, http.StatusOK)
	Eventually(t, 60*time.Second, 500*time.Millisecond, "the subnet's pools restored in Neutron", func() error {
		sub, ok := GetSubnet(t, first.Status.SubnetID)
		if !ok {
			return fmt.Errorf("subnet %s is gone", first.Status.SubnetID)
		}
		if sub.Pools() != "10.76.0.1-10.76.0.254" || sub.GatewayIP != "" {
			return fmt.Errorf("subnet has pools %s gateway %q, want 10.76.0.1-10.76.0.254 and none", sub.Pools(), sub.GatewayIP)
		}
		return nil
	})
	WaitEvent(t, ns, "pools", "Warning", "NeutronDrift", "allocation pools from 10.76.0.5-10.76.0.9 to 10.76.0.1-10.76.0.254", 30*time.Second)
	if got := WaitReady(t, ns, "pools", 30*time.Second); got.Status.SubnetID != first.Status.SubnetID {
		t.Errorf("after the repair: subnet %s, want the same %s", got.Status.SubnetID, first.Status.SubnetID)
	}
}

// An IPv6 slaac Network is Ready with both modes, and its pools, in Neutron.
func TestIPv6SLAACNetwork(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	StartController(t, ControllerOptions{Namespaces: []string{ns}})
	_, nets := Clients(t)

	created, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: "slaac", Namespace: ns},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "2001:db8:76::/64",
			IPv6AddressMode: samplecrdv1.IPv6ModeSLAAC, IPv6RAMode: samplecrdv1.IPv6ModeSLAAC,
			AllocationPools: []samplecrdv1.AllocationPool{{Start: "2001:db8:76::1:0", End: "2001:db8:76:0:ffff:ffff:ffff:ffff"}}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/slaac: %v", ns, err)
	}
	got := waitSubnetMatchesSpec(t, ns, "slaac", created.Generation)
	sub := wantSubnet(t, got, "2001:db8:76::1", "2001:db8:76::1:0-2001:db8:76:0:ffff:ffff:ffff:ffff")
	if sub.IPv6AddressMode != "slaac" || sub.IPv6RAMode != "slaac" || sub.IPVersion != 6 {
		t.Errorf("Neutron subnet %s: IPv%d, modes %q/%q, want IPv6 slaac/slaac", sub.ID, sub.IPVersion, sub.IPv6AddressMode, sub.IPv6RAMode)
	}
}

// Pools the CRD cannot judge (it cannot order IPv6 addresses) are judged by the controller
// before any Neutron call: Ready=False InvalidSpec naming the field, nothing in Neutron; a
// corrected spec is then realized.
func TestInvalidIPv6PoolsEndAsInvalidSpec(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	StartController(t, ControllerOptions{Namespaces: []string{ns}})
	_, nets := Clients(t)

	cases := []struct {
		name    string
		gateway string
		pools   []samplecrdv1.AllocationPool
		want    string
	}{
		{"reversed", "", []samplecrdv1.AllocationPool{{Start: "2001:db8:77::1:0", End: "2001:db8:77::ff"}},
			"allocationPools[0] 2001:db8:77::1:0-2001:db8:77::ff is reversed"},
		{"gateway-inside", "2001:db8:77::50", []samplecrdv1.AllocationPool{{Start: "2001:db8:77::10", End: "2001:db8:77::ff"}},
			"allocationPools[0] 2001:db8:77::10-2001:db8:77::ff contains the gateway 2001:db8:77::50"},
		{"overlapping", "", []samplecrdv1.AllocationPool{{Start: "2001:db8:77::10", End: "2001:db8:77::ff"}, {Start: "2001:db8:77::f0", End: "2001:db8:77::1:0"}},
			"allocationPools[1] 2001:db8:77::f0-2001:db8:77::1:0 overlaps allocationPools[0] 2001:db8:77::10-2001:db8:77::ff"},
	}
	for _, tc := range cases {
		if _, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
			ObjectMeta: metav1.ObjectMeta{Name: tc.name, Namespace: ns},
			Spec:       samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "2001:db8:77::/64", Gateway: tc.gateway, AllocationPools: tc.pools}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating Network %s/%s (the CRD must admit it): %v", ns, tc.name, err)
		}
	}
	for _, tc := range cases {
		n := WaitReason(t, ns, tc.name, 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec)
		if msg := n.ReadyCondition().Message; !strings.Contains(msg, tc.want) {
			t.Errorf("%s: Ready message %q, want it to contain %q", tc.name, msg, tc.want)
		}
		if n.Status.NetworkID != "" || n.Status.SubnetID != "" {
			t.Errorf("%s: status names network %q subnet %q, want nothing made in Neutron", tc.name, n.Status.NetworkID, n.Status.SubnetID)
		}
	}

	patched, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), "reversed", types.MergePatchType,
		[]byte(`{"spec":{"allocationPools":[{"start":"2001:db8:77::ff","end":"2001:db8:77::1:0"}]}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("correcting %s/reversed: %v", ns, err)
	}
	fixed := waitSubnetMatchesSpec(t, ns, "reversed", patched.Generation)
	wantSubnet(t, fixed, "2001:db8:77::1", "2001:db8:77::ff-2001:db8:77::1:0")
}

// wantSubnet checks the gateway (status and Neutron; "" for none) and the pools of the
// Network's Neutron subnet, and returns the subnet.
func wantSubnet(t *testing.T, n *samplecrdv1.Network, gateway, pools string) NeutronSubnet {
	t.Helper()
	sub, ok := GetSubnet(t, n.Status.SubnetID)
	if !ok {
		t.Fatalf("subnet %s of %s not found in Neutron", n.Status.SubnetID, n.Name)
	}
	if sub.GatewayIP != gateway || n.Status.Gateway != gateway {
		t.Errorf("%s: Neutron gateway %q, status.gateway %q, want %q", n.Name, sub.GatewayIP, n.Status.Gateway, gateway)
	}
	if sub.Pools() != pools {
		t.Errorf("%s: Neutron pools %s, want %s", n.Name, sub.Pools(), pools)
	}
	return sub
}
