//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// The Neutron network carries the cluster ID and the object's UID as tags; network and
// subnet carry the cluster's description and the owner's deterministic name.
func TestOwnershipMarks(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})

	CreateNetwork(t, ns, "owned", "10.40.0.0/24", "")
	n := WaitReady(t, ns, "owned", 60*time.Second)
	if c := n.ReadyCondition(); c.Reason != samplecrdv1.ReasonProvisioned {
		t.Errorf("Ready reason = %s, want %s", c.Reason, samplecrdv1.ReasonProvisioned)
	}
	if !slices.Contains(n.Finalizers, samplecrdv1.FinalizerName) {
		t.Errorf("finalizers = %v, want %s", n.Finalizers, samplecrdv1.FinalizerName)
	}
	owner := OwnerOf(ctrl.ClusterID, n)
	wantName := "k8s_" + ns + "_owned_" + string(n.UID)
	wantTags := []string{"k8s-cluster=" + ctrl.ClusterID, "k8s-uid=" + string(n.UID)}

	nets, _, err := NeutronOf(t, owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 1 {
		t.Fatalf("Neutron networks of the owner = %d (%v), want 1", len(nets), ids(nets))
	}
	net := nets[0]
	if net.ID != n.Status.NetworkID {
		t.Errorf("Neutron network %s, status.networkID %s", net.ID, n.Status.NetworkID)
	}
	if net.Name != wantName {
		t.Errorf("network name = %q, want %q", net.Name, wantName)
	}
	if want := neutron.ClusterDescription(ctrl.ClusterID); net.Description != want {
		t.Errorf("network description = %q, want %q", net.Description, want)
	}
	for _, tag := range wantTags {
		if !slices.Contains(net.Tags, tag) {
			t.Errorf("network tags %v lack %q", net.Tags, tag)
		}
	}

	_, subs, err := NeutronOf(t, owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 {
		t.Fatalf("Neutron subnets of the owner = %d, want 1", len(subs))
	}
	sub := subs[0]
	if sub.ID != n.Status.SubnetID || sub.NetworkID != net.ID {
		t.Errorf("subnet %s on network %s; status says subnet %s on network %s", sub.ID, sub.NetworkID, n.Status.SubnetID, net.ID)
	}
	// A subnet belongs to its network; its description marks only the cluster.
	if want := neutron.ClusterDescription(ctrl.ClusterID); sub.Name != wantName || sub.Description != want {
		t.Errorf("subnet name %q description %q, want %q and %q", sub.Name, sub.Description, wantName, want)
	}
	if sub.CIDR != "10.40.0.0/24" || sub.GatewayIP != "10.40.0.1" || n.Status.Gateway != "10.40.0.1" {
		t.Errorf("subnet %s gateway %s, status.gateway %s; want 10.40.0.0/24 and the default gateway 10.40.0.1",
			sub.CIDR, sub.GatewayIP, n.Status.Gateway)
	}
	WaitEvent(t, ns, "owned", "Normal", samplecrdv1.ReasonProvisioned, "", 30*time.Second)
}

// Items 5 and 9 (updates, IPv6): a gateway change is applied to the existing subnet in
// place, and status and an Event say so; removing the gateway returns to the default.
func TestGatewayUpdateInPlace(t *testing.T) {
	t.Parallel()
	cases := []struct {
		family, cidr, gw1, gw2, dflt string
		pools2                       [][2]string // Neutron allocation pools after gw2 (nil: not checked)
	}{
		{"IPv4", "10.41.0.0/24", "", "10.41.0.254", "10.41.0.1", [][2]string{{"10.41.0.1", "10.41.0.253"}}},
		{"IPv6", "2001:db8:41::/64", "2001:db8:41::1", "2001:db8:41::ffff", "2001:db8:41::1", nil},
	}
	for _, tc := range cases {
		t.Run(tc.family, func(t *testing.T) {
			ns := NewNamespace(t)
			StartController(t, ControllerOptions{Namespaces: []string{ns}})

			CreateNetwork(t, ns, "gw", tc.cidr, tc.gw1)
			before := WaitReady(t, ns, "gw", 60*time.Second)
			if before.Status.Gateway != tc.dflt {
				t.Errorf("status.gateway = %s, want %s", before.Status.Gateway, tc.dflt)
			}
			sub, ok := GetSubnet(t, before.Status.SubnetID)
			if !ok {
				t.Fatalf("subnet %s missing", before.Status.SubnetID)
			}
			wantVersion := 4
			if tc.family == "IPv6" {
				wantVersion = 6
			}
			if sub.CIDR != tc.cidr || sub.IPVersion != wantVersion || sub.GatewayIP != tc.dflt {
				t.Errorf("Neutron subnet cidr %s ip_version %d gateway %s; want %s, %d, %s",
					sub.CIDR, sub.IPVersion, sub.GatewayIP, tc.cidr, wantVersion, tc.dflt)
			}

			SetGateway(t, ns, "gw", tc.gw2)
			after := waitGateway(t, ns, "gw", tc.gw2)
			if after.Status.SubnetID != before.Status.SubnetID || after.Status.NetworkID != before.Status.NetworkID {
				t.Errorf("gateway change replaced resources: network %s -> %s, subnet %s -> %s",
					before.Status.NetworkID, after.Status.NetworkID, before.Status.SubnetID, after.Status.SubnetID)
			}
			if c := after.ReadyCondition(); c.Reason != samplecrdv1.ReasonProvisioned || !strings.Contains(c.Message, tc.gw2) {
				t.Errorf("Ready condition after the change: %s", DescribeReady(after))
			}
			sub, _ = GetSubnet(t, before.Status.SubnetID)
			if sub.GatewayIP != tc.gw2 {
				t.Errorf("Neutron gateway = %s, want %s", sub.GatewayIP, tc.gw2)
			}
			if tc.pools2 != nil {
				var got [][2]string
				for _, p := range sub.AllocationPools {
					got = append(got, [2]string{p.Start, p.End})
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.pools2) {
					t.Errorf("Neutron allocation pools = %v, want %v", got, tc.pools2)
				}
			}
			WaitEvent(t, ns, "gw", "Normal", "GatewayUpdated", "from "+tc.dflt+" to "+tc.gw2, 30*time.Second)

			// Dropping spec.gateway means the first usable address again.
			_, nets := Clients(t)
			if _, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), "gw", "application/merge-patch+json",
				[]byte(`{"spec":{"gateway":null}}`), metav1.PatchOptions{}); err != nil {
				t.Fatalf("removing the gateway: %v", err)
			}
			back := waitGateway(t, ns, "gw", tc.dflt)
			if back.Status.SubnetID != before.Status.SubnetID {
				t.Errorf("subnet replaced when the gateway was removed: %s -> %s", before.Status.SubnetID, back.Status.SubnetID)
			}
			if sub, _ := GetSubnet(t, before.Status.SubnetID); sub.GatewayIP != tc.dflt {
				t.Errorf("Neutron gateway = %s after removing spec.gateway, want %s", sub.GatewayIP, tc.dflt)
			}
		})
	}
}

func waitGateway(t *testing.T, ns, name, gw string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 60*time.Second, "Ready with gateway "+gw, func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.Gateway != gw {
			return fmt.Errorf("%s, status.gateway=%s", DescribeReady(n), n.Status.Gateway)
		}
		return nil
	})
}

// A spec that passes the CRD's rules but that Neutron
// refuses with 400 (an IPv4 multicast range: "Multicast IP subnet is not supported if
// enable_dhcp is True") is reported as Ready=False InvalidSpec with a Warning Event, and
// is not retried: neither reconciliations nor Neutron subnet creates keep coming.
func TestInvalidSpecRejectedByNeutronIsTerminal(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})

	created := CreateNetwork(t, ns, "multicast", "224.0.0.0/24", "") // the CRD accepts it
	n := WaitReason(t, ns, "multicast", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec)
	c := n.ReadyCondition()
	if !strings.Contains(c.Message, "Multicast") || !strings.Contains(c.Message, "create subnet") {
		t.Errorf("Ready message does not carry Neutron's explanation: %q", c.Message)
	}
	if c.ObservedGeneration != n.Generation {
		t.Errorf("condition observedGeneration %d, generation %d", c.ObservedGeneration, n.Generation)
	}
	WaitEvent(t, ns, "multicast", "Warning", samplecrdv1.ReasonInvalidSpec, "Multicast", 30*time.Second)

	// Not retried: give the controller a moment to settle, then compare counters 10 s apart.
	time.Sleep(2 * time.Second)
	reconciles := func() float64 {
		v, err := ctrl.Metric("network_controller_reconcile_total")
		if err != nil {
			t.Fatalf("reading reconcile_total: %v", err)
		}
		return v
	}
	subnetCreates := func() float64 {
		v, err := ctrl.Metric("network_controller_neutron_requests_total", "operation=create subnet")
		if err != nil {
			t.Fatalf("reading neutron_requests_total: %v", err)
		}
		return v
	}
	r1, s1 := reconciles(), subnetCreates()
	time.Sleep(10 * time.Second)
	r2, s2 := reconciles(), subnetCreates()
	t.Logf("reconcile_total %v -> %v, create subnet calls %v -> %v over 10s", r1, r2, s1, s2)
	if r2-r1 > 1 || s2-s1 > 1 {
		t.Errorf("a terminal failure is being retried: reconcile_total %v -> %v, create subnet calls %v -> %v in 10s", r1, r2, s1, s2)
	}
	// A few attempts are expected before the status settles (the reconciles triggered by the
	// controller's own writes, and a retry after a write conflict with a stale cache).
	if s2 > 6 {
		t.Errorf("%v subnet creates for one terminally invalid Network", s2)
	}
	if got := GetNetwork(t, ns, "multicast").ReadyCondition(); got.Reason != samplecrdv1.ReasonInvalidSpec {
		t.Errorf("Ready reason changed to %s", got.Reason)
	}

	// Neutron holds the network (status records it) and no subnet; deletion cleans it up.
	owner := OwnerOf(ctrl.ClusterID, created)
	nets, _, err := NeutronOf(t, owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 1 {
		t.Errorf("Neutron networks of the owner = %v, want exactly one", ids(nets))
	}
	if _, subs, _ := NeutronOf(t, owner); len(subs) != 0 {
		t.Errorf("Neutron subnets of the owner = %v, want none", ids(subs))
	}
	DeleteNetwork(t, ns, "multicast")
	WaitGone(t, ns, "multicast", 60*time.Second)
	WaitNeutronEmpty(t, owner, 10*time.Second)
}

// ownerNetworks lists the owner's Neutron networks by the name their create gave them and
// by their tags.
func ownerNetworks(t *testing.T, owner neutron.Owner) (byName, byTags []neutron.Network) {
	t.Helper()
	nc := Neutron(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	if byName, err = neutronstore.OwnedNetworks(ctx, nc, owner, ""); err != nil {
		t.Fatalf("listing networks by name: %v", err)
	}
	if byTags, err = nc.ListNetworks(ctx, neutron.Filter{Tags: owner.Tags()}); err != nil {
		t.Fatalf("listing networks by tags: %v", err)
	}
	return byName, byTags
}

// The longest name in the longest namespace Kubernetes allows still fits Neutron's
// 255-character name and description, and the Network becomes Ready.
func TestLongestNameFitsNeutron(t *testing.T) {
	t.Parallel()
	NewNamespace(t) // takes the cluster lock and cleans up like every test
	ns := "e2e-" + RandomSuffix(59)
	MustKubectl(t, "create", "namespace", ns)
	name := strings.Repeat("n", 253-10) + RandomSuffix(10)
	t.Cleanup(func() {
		_, nets := Clients(t)
		_ = RemoveFinalizers(context.Background(), nets, ns, name)
		_, _ = Kubectl(t, "delete", "namespace", ns, "--wait=false")
	})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})

	CreateNetwork(t, ns, name, "10.41.0.0/24", "")
	n := WaitReady(t, ns, name, 60*time.Second)

	nets, _, err := NeutronOf(t, OwnerOf(ctrl.ClusterID, n))
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 1 {
		t.Fatalf("Neutron networks of the owner = %v, want one", ids(nets))
	}
	if len(nets[0].Name) > 255 || len(nets[0].Description) > 255 {
		t.Errorf("Neutron name %d and description %d characters, want at most 255", len(nets[0].Name), len(nets[0].Description))
	}
	t.Logf("name %d characters: %s", len(nets[0].Name), nets[0].Name)
	t.Logf("description %d characters: %s", len(nets[0].Description), nets[0].Description)

	DeleteNetwork(t, ns, name)
	WaitGone(t, ns, name, 60*time.Second)
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, n), 30*time.Second)
}
