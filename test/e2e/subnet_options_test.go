//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// DNS servers, host routes and DHCP reach the Neutron subnet in its create, change in
// place on the same subnet, and come back when an admin changes them in Neutron.
func TestSubnetOptions(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-resync-period=2s"}})
	_, nets := Clients(t)

	off := false
	created, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: "options", Namespace: ns},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.74.0.0/24",
			// Not in ascending order: the order is the user's and must be kept.
			DNSNameservers: []string{"10.74.0.3", "10.74.0.2"},
			HostRoutes: []samplecrdv1.HostRoute{
				{Destination: "10.75.0.0/16", NextHop: "10.74.0.254"}, {Destination: "192.168.0.0/24", NextHop: "10.74.0.253"}},
			EnableDHCP: &off,
		}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/options: %v", ns, err)
	}
	first := waitSubnetMatchesSpec(t, ns, "options", created.Generation)
	sub, _ := GetSubnet(t, first.Status.SubnetID)
	if want := `dns=[10.74.0.3 10.74.0.2] routes=[10.75.0.0/16>10.74.0.254 192.168.0.0/24>10.74.0.253] dhcp=false ipv6modes=""/""`; sub.Options() != want {
		t.Errorf("Neutron subnet %s has %s, want %s", sub.ID, sub.Options(), want)
	}

	// Each field changed in place, one at a time, then one removed: omitted means none.
	for _, change := range []struct{ patch, event string }{
		{`{"spec":{"dnsNameservers":["10.74.0.2","10.74.0.3","192.0.2.53"]}}`, "dns nameservers from 10.74.0.3,10.74.0.2 to 10.74.0.2,10.74.0.3,192.0.2.53"},
		{`{"spec":{"hostRoutes":[{"destination":"10.75.0.0/16","nextHop":"10.74.0.250"}]}}`, "host routes from"},
		{`{"spec":{"enableDHCP":true}}`, "dhcp from off to on"},
		{`{"spec":{"dnsNameservers":null}}`, "to none"},
	} {
		patched, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), "options", types.MergePatchType,
			[]byte(change.patch), metav1.PatchOptions{})
		if err != nil {
			t.Fatalf("patching %s/options with %s: %v", ns, change.patch, err)
		}
		after := waitSubnetMatchesSpec(t, ns, "options", patched.Generation)
		if after.Status.SubnetID != first.Status.SubnetID || after.Status.NetworkID != first.Status.NetworkID {
			t.Errorf("after %s: network %s subnet %s, want the same %s %s", change.patch,
				after.Status.NetworkID, after.Status.SubnetID, first.Status.NetworkID, first.Status.SubnetID)
		}
		WaitEvent(t, ns, "options", "Normal", "SubnetUpdated", change.event, 30*time.Second)
	}

	// An admin changes all three in Neutron: the resync puts the spec back. Settle first
	// (a resync with nothing to do), so that what repairs it is the resync.
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")
	MustNeutron(t, http.MethodPut, "v2.0/subnets/"+first.Status.SubnetID, map[string]any{"subnet": map[string]any{
		"dns_nameservers": []string{"8.8.8.8"},
		"host_routes":     []map[string]string{{"destination": "172.16.0.0/12", "nexthop": "10.74.0.9"}},
		"enable_dhcp":     false,
	}}, nil, http.StatusOK)
	want := SpecOptions(GetNetwork(t, ns, "options").Spec)
	Eventually(t, 60*time.Second, 500*time.Millisecond, "the subnet's options restored in Neutron", func() error {
		sub, ok := GetSubnet(t, first.Status.SubnetID)
		if !ok {
			return fmt.Errorf("subnet %s is gone", first.Status.SubnetID)
		}
		if sub.Options() != want {
			return fmt.Errorf("subnet has %s, want %s", sub.Options(), want)
		}
		return nil
	})
	WaitEvent(t, ns, "options", "Warning", "NeutronDrift", "8.8.8.8", 30*time.Second)
	if got := WaitReady(t, ns, "options", 30*time.Second); got.Status.SubnetID != first.Status.SubnetID {
		t.Errorf("after the repair: subnet %s, want the same %s", got.Status.SubnetID, first.Status.SubnetID)
	}
}

// waitSubnetMatchesSpec waits until the Network is Ready for generation and its Neutron
// subnet has exactly the spec's DNS servers, routes, DHCP, IPv6 modes and, when the spec
// names them, allocation pools.
func waitSubnetMatchesSpec(t *testing.T, ns, name string, generation int64) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 60*time.Second, "Ready with the spec's subnet options", func(n *samplecrdv1.Network) error {
		if n.Generation < generation || !n.IsReady() {
			return fmt.Errorf("%s (want generation %d)", DescribeReady(n), generation)
		}
		sub, ok := GetSubnet(t, n.Status.SubnetID)
		if !ok {
			return fmt.Errorf("subnet %s not found in Neutron", n.Status.SubnetID)
		}
		if got, want := sub.Options(), SpecOptions(n.Spec); got != want {
			return fmt.Errorf("subnet %s has %s, spec %s", sub.ID, got, want)
		}
		if want := SpecPools(n.Spec); want != "" && sub.Pools() != want {
			return fmt.Errorf("subnet %s has pools %s, spec %s", sub.ID, sub.Pools(), want)
		}
		return nil
	})
}
