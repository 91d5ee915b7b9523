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

// mtuNetwork is a Network object with spec.mtu set.
func mtuNetwork(ns, name, cidr string, mtu int32) *samplecrdv1.Network {
	return &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}, MTU: &mtu},
	}
}

// neutronMTU reads the MTU of a Neutron network.
func neutronMTU(t *testing.T, networkID string) int32 {
	t.Helper()
	var doc map[string]struct {
		MTU int32 `json:"mtu"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/networks/"+networkID, nil, &doc, http.StatusOK)
	return doc["network"].MTU
}

// The CRD's rules refuse an MTU out of range, and one below the IPv6 minimum on an IPv6
// cidr, naming spec.mtu; no controller is involved.
func TestMTUValidation(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	_, nets := Clients(t)
	ctx := Ctx(t, time.Minute)

	for _, tc := range []struct {
		name, cidr string
		mtu        int32
		want       []string
	}{
		{"mtu-too-small", "10.0.0.0/24", 50, []string{"is invalid", "spec.mtu", "68 and 9216"}},
		{"mtu-too-big", "10.0.0.0/24", 9217, []string{"is invalid", "spec.mtu", "68 and 9216"}},
		{"mtu-ipv6-below-1280", "2001:db8:77::/64", 1000, []string{"is invalid", "spec.mtu", "at least 1280", "2001:db8:77::/64"}},
	} {
		_, err := nets.SamplecrdV1().Networks(ns).Create(ctx, mtuNetwork(ns, tc.name, tc.cidr, tc.mtu), metav1.CreateOptions{})
		if err == nil {
			t.Errorf("cidr %s mtu %d was accepted", tc.cidr, tc.mtu)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("cidr %s mtu %d: error does not contain %q: %v", tc.cidr, tc.mtu, want, err)
			}
		}
	}

	// The IPv6 minimum is not asked of IPv4, and 1280 itself is enough for IPv6.
	for _, tc := range []struct {
		cidr string
		mtu  int32
	}{{"10.0.0.0/24", 1000}, {"10.0.0.0/24", 68}, {"10.0.0.0/24", 9216}, {"2001:db8:77::/64", 1280}} {
		_, err := nets.SamplecrdV1().Networks(ns).Create(ctx, mtuNetwork(ns, "mtu-valid", tc.cidr, tc.mtu),
			metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Errorf("cidr %s mtu %d was refused: %v", tc.cidr, tc.mtu, err)
		}
	}
}

// spec.mtu reaches the Neutron network, changes in place, and is restored when changed by
// hand in Neutron; status.mtu follows.
func TestMTU(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=2s"}})
	_, nets := Clients(t)

	// Created with an MTU.
	if _, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second),
		mtuNetwork(ns, "mtu", "10.72.0.0/24", 1400), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating Network %s/mtu: %v", ns, err)
	}
	before := WaitReady(t, ns, "mtu", 60*time.Second)
	if before.Status.MTU != 1400 {
		t.Errorf("status.mtu = %d, want 1400", before.Status.MTU)
	}
	if got := neutronMTU(t, before.Status.NetworkID); got != 1400 {
		t.Errorf("Neutron network %s has mtu %d, want 1400", before.Status.NetworkID, got)
	}

	// Changed in place.
	patched, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), "mtu", types.MergePatchType,
		[]byte(`{"spec":{"mtu":1300}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("setting spec.mtu of %s/mtu to 1300: %v", ns, err)
	}
	after := WaitNetwork(t, ns, "mtu", 60*time.Second, "Ready with mtu 1300", func(n *samplecrdv1.Network) error {
		if n.Generation < patched.Generation || !n.IsReady() || n.Status.MTU != 1300 {
			return fmt.Errorf("%s status.mtu=%d (patched generation %d)", DescribeReady(n), n.Status.MTU, patched.Generation)
		}
		return nil
	})
	if after.Status.NetworkID != before.Status.NetworkID || after.Status.SubnetID != before.Status.SubnetID {
		t.Errorf("after the MTU change: network %s subnet %s, want the same %s %s",
			after.Status.NetworkID, after.Status.SubnetID, before.Status.NetworkID, before.Status.SubnetID)
	}
	if got := neutronMTU(t, before.Status.NetworkID); got != 1300 {
		t.Errorf("Neutron network %s has mtu %d after the change, want 1300", before.Status.NetworkID, got)
	}
	WaitEvent(t, ns, "mtu", "Normal", "NetworkUpdated", "1300", 30*time.Second)

	// Changed by hand in Neutron: the resync restores it. Settle first (a resync with
	// nothing to do), so that what repairs it is the resync, not a reconcile in flight.
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")
	MustNeutron(t, http.MethodPut, "v2.0/networks/"+before.Status.NetworkID,
		map[string]any{"network": map[string]any{"mtu": 1280}}, nil, http.StatusOK)
	Eventually(t, 60*time.Second, 500*time.Millisecond, "mtu 1300 restored in Neutron", func() error {
		if got := neutronMTU(t, before.Status.NetworkID); got != 1300 {
			return fmt.Errorf("mtu is %d", got)
		}
		return nil
	})
	WaitEvent(t, ns, "mtu", "Warning", "NeutronDrift", "1280", 30*time.Second)
	repaired := WaitReady(t, ns, "mtu", 30*time.Second)
	if repaired.Status.MTU != 1300 || repaired.Status.NetworkID != before.Status.NetworkID {
		t.Errorf("after the repair: status.mtu %d network %s, want 1300 on %s",
			repaired.Status.MTU, repaired.Status.NetworkID, before.Status.NetworkID)
	}
}

// An MTU the CRD allows but Neutron refuses (above what its physical network carries)
// ends InvalidSpec with Neutron's reason, and no Neutron network is left behind.
func TestMTUTooBigForNeutron(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})
	_, nets := Clients(t)

	n, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second),
		mtuNetwork(ns, "mtu-big", "10.73.0.0/24", 9000), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/mtu-big: %v", ns, err)
	}
	got := WaitReason(t, ns, "mtu-big", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec)
	// Neutron says e.g. "Requested MTU is too big, maximum is 1500"; its maximum depends
	// on its configuration.
	if msg := got.ReadyCondition().Message; !strings.Contains(msg, "MTU") || !strings.Contains(strings.ToLower(msg), "too big") {
		t.Errorf("Ready message %q does not carry Neutron's refusal of the MTU", msg)
	}
	if got.Status.NetworkID != "" {
		t.Errorf("status.networkID = %s, want none", got.Status.NetworkID)
	}
	nnets, _, err := NeutronOf(t, OwnerOf(ctrl.ClusterID, n))
	if err != nil {
		t.Fatal(err)
	}
	if len(nnets) != 0 {
		t.Errorf("Neutron networks of the owner = %v, want none", ids(nnets))
	}
}
