//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// team-a shares its Network with team-b's project, as team-a's member user: team-b's
// member user sees the network; a policy deleted by hand comes back; dropping team-b
// from the list takes the network away from team-b again. Port security, off from the
// create, is turned on in place and restored after a change by hand.
func TestSharingWithAnotherProjectAndPortSecurity(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	teamB := ks.ProjectID(t, TenantB)
	ns, _ := startTenantController(t, ks)
	asA := ks.DriverAs(t, TenantA)

	CreateNetworkWithSpec(t, ns, "shared", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.70.0.0/24"},
		SharedWith: []samplecrdv1.ProjectID{samplecrdv1.ProjectID(teamB)}, PortSecurityEnabled: ptr.To(false),
		CloudCredentialsRef: teamA()})
	n := WaitNetwork(t, ns, "shared", 90*time.Second, "Ready, shared with team-b", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || len(n.Status.SharedWith) != 1 || n.Status.SharedWith[0].ProjectID != teamB {
			return fmt.Errorf("%s, sharedWith %v", DescribeReady(n), n.Status.SharedWith)
		}
		return nil
	})
	netID := n.Status.NetworkID
	if !slices.Contains(ks.NetworkIDsSeenBy(t, TenantB), netID) {
		t.Errorf("team-b's user does not see network %s shared with its project", netID)
	}
	if policies := sharesOf(t, asA, netID); len(policies) != 1 || policies[0].ID != n.Status.SharedWith[0].RBACPolicyID || policies[0].TargetProject != teamB {
		t.Errorf("Neutron holds policies %+v, want the one status names, %+v", policies, n.Status.SharedWith)
	}
	if net := readNetworkAs(t, asA, netID); net.PortSecurityEnabled == nil || *net.PortSecurityEnabled || n.Status.PortSecurityEnabled == nil || *n.Status.PortSecurityEnabled {
		t.Errorf("port security is %v in Neutron, %v in status; want off in both", net.PortSecurityEnabled, n.Status.PortSecurityEnabled)
	}

	// The policy deleted by hand: made again at a resync, and status names the new one.
	first := n.Status.SharedWith[0].RBACPolicyID
	if err := asA.DeleteRBACPolicy(Ctx(t, 90*time.Second), first); err != nil {
		t.Fatalf("deleting policy %s as team-a: %v", first, err)
	}
	WaitEvent(t, ns, "shared", "Warning", "NeutronDrift", "no longer shared with project "+teamB, 120*time.Second)
	WaitNetwork(t, ns, "shared", 60*time.Second, "a new policy for team-b", func(n *samplecrdv1.Network) error {
		if len(n.Status.SharedWith) != 1 || n.Status.SharedWith[0].RBACPolicyID == first {
			return fmt.Errorf("sharedWith %v", n.Status.SharedWith)
		}
		return nil
	})
	if policies := sharesOf(t, asA, netID); len(policies) != 1 || policies[0].ID == first {
		t.Errorf("Neutron holds policies %+v, want one new policy for team-b", policies)
	}

	// Port security on in the spec, in place; then off by hand, and back on.
	UpdateNetworkSpec(t, ns, "shared", func(s *samplecrdv1.NetworkSpec) { s.PortSecurityEnabled = ptr.To(true) })
	waitPortSecurity(t, asA, netID, true)
	if _, err := asA.UpdateNetwork(Ctx(t, 90*time.Second), netID, neutron.NetworkAttrs{PortSecurityEnabled: ptr.To(false)}); err != nil {
		t.Fatalf("turning port security off by hand: %v", err)
	}
	WaitEvent(t, ns, "shared", "Warning", "NeutronDrift", "port security from off to on", 120*time.Second)
	waitPortSecurity(t, asA, netID, true)

	// Dropped from the list: team-b loses the network, and the sharing mark goes.
	UpdateNetworkSpec(t, ns, "shared", func(s *samplecrdv1.NetworkSpec) { s.SharedWith = nil })
	WaitNetwork(t, ns, "shared", 60*time.Second, "Ready, shared with no one", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Generation != n.Status.ObservedGeneration || len(n.Status.SharedWith) != 0 {
			return fmt.Errorf("%s, sharedWith %v", DescribeReady(n), n.Status.SharedWith)
		}
		return nil
	})
	if slices.Contains(ks.NetworkIDsSeenBy(t, TenantB), netID) {
		t.Errorf("team-b's user still sees network %s", netID)
	}
	if policies := sharesOf(t, asA, netID); len(policies) != 0 {
		t.Errorf("Neutron still holds policies %+v", policies)
	}
	if net := readNetworkAs(t, asA, netID); neutron.SharingMarked(net) {
		t.Errorf("network %s still carries the sharing mark: %v", netID, net.Tags)
	}

	DeleteNetwork(t, ns, "shared")
	WaitGone(t, ns, "shared", 120*time.Second)
	if nets, _ := asA.ListNetworks(Ctx(t, 90*time.Second), neutron.Filter{IDs: []string{netID}}); len(nets) != 0 {
		t.Errorf("network %s is still in Neutron after the Network was deleted", netID)
	}
}

// A shared Network deleted as it is: the network goes with its policies.
func TestDeletingASharedNetworkLeavesNoPolicy(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	teamB := ks.ProjectID(t, TenantB)
	ns, _ := startTenantController(t, ks)
	asA := ks.DriverAs(t, TenantA)

	CreateNetworkWithSpec(t, ns, "gone", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.71.0.0/24"},
		SharedWith:          []samplecrdv1.ProjectID{samplecrdv1.ProjectID(teamB)},
		CloudCredentialsRef: teamA()})
	netID := WaitReady(t, ns, "gone", 90*time.Second).Status.NetworkID
	DeleteNetwork(t, ns, "gone")
	WaitGone(t, ns, "gone", 120*time.Second)
	if policies := sharesOf(t, asA, netID); len(policies) != 0 {
		t.Errorf("policies %+v outlive network %s", policies, netID)
	}
	if slices.Contains(ks.NetworkIDsSeenBy(t, TenantB), netID) {
		t.Errorf("team-b's user still sees network %s", netID)
	}
}

func sharesOf(t testing.TB, d neutron.Driver, netID string) []neutron.RBACPolicy {
	t.Helper()
	policies, err := d.ListNetworkShares(Ctx(t, 90*time.Second), neutron.Filter{NetworkIDs: []string{netID}})
	if err != nil {
		t.Fatalf("listing the policies of network %s: %v", netID, err)
	}
	return policies
}

func readNetworkAs(t testing.TB, d neutron.Driver, netID string) neutron.Network {
	t.Helper()
	nets, err := d.ListNetworks(Ctx(t, 90*time.Second), neutron.Filter{IDs: []string{netID}})
	if err != nil || len(nets) != 1 {
		t.Fatalf("reading network %s: %v, %d found", netID, err, len(nets))
	}
	return nets[0]
}

func waitPortSecurity(t testing.TB, d neutron.Driver, netID string, want bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		net := readNetworkAs(t, d, netID)
		if net.PortSecurityEnabled != nil && *net.PortSecurityEnabled == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("port security of network %s is %v, want %v", netID, net.PortSecurityEnabled, want)
		}
		time.Sleep(time.Second)
	}
}
