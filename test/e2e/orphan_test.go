//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// fakeUID returns a UID-shaped string no object has.
func fakeUID() string {
	s := RandomSuffix(32)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

// createOwnedNetwork creates, directly in Neutron, a network and a subnet marked as a
// controller of owner.ClusterID would have marked them.
func createOwnedNetwork(t *testing.T, owner neutron.Owner, cidr string) (neutron.Network, neutron.Subnet) {
	t.Helper()
	n := CreateForeignNetwork(t, owner.ResourceName(), neutron.ClusterDescription(owner.ClusterID), owner.Tags())
	nc := Neutron(t)
	sub, err := nc.CreateSubnet(Ctx(t, 30*time.Second), neutron.SubnetRequest{
		NetworkID: n.ID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CIDR: cidr, IPVersion: 4,
	})
	if err != nil {
		t.Fatalf("creating subnet on %s: %v", n.ID, err)
	}
	return n, sub
}

// waitResyncs waits until the controller logged n more Neutron resyncs than it had when
// called.
func waitResyncs(t *testing.T, ctrl *Controller, n int, timeout time.Duration) {
	t.Helper()
	start := CountLines(ctrl.Logs(), "Neutron resync done")
	Eventually(t, timeout, 250*time.Millisecond, fmt.Sprintf("%d more Neutron resyncs", n), func() error {
		if got := CountLines(ctrl.Logs(), "Neutron resync done") - start; got < n {
			return fmt.Errorf("%d resyncs so far", got)
		}
		return nil
	})
}

// Items 1 and 8 (ownership, orphans): with no grace period, this cluster's Neutron network
// whose Network UID does not exist is collected (and the log says so), while networks
// tagged for ANOTHER cluster ID are never touched, not even one naming the UID of a live
// Network of this cluster.
func TestOrphanCollectionSparesOtherClusters(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-orphan-grace-period=0s", "-neutron-resync-period=2s"}})

	CreateNetwork(t, ns, "live", "10.80.0.0/24", "")
	live := WaitReady(t, ns, "live", 60*time.Second)

	// Another cluster's resources: one naming a UID nobody has, one naming the UID of our
	// live Network (a cluster ID is what tells clusters apart, not the UID).
	otherCluster := "e2e-other-" + RandomSuffix(8)
	foreignOrphan := neutron.Owner{ClusterID: otherCluster, Namespace: ns, Name: "ghost", UID: fakeUID()}
	foreignTwin := neutron.Owner{ClusterID: otherCluster, Namespace: ns, Name: "live", UID: string(live.UID)}
	f1, f1sub := createOwnedNetwork(t, foreignOrphan, "10.81.0.0/24")
	f2, f2sub := createOwnedNetwork(t, foreignTwin, "10.80.0.0/24")
	// This cluster's orphan.
	ours := neutron.Owner{ClusterID: ctrl.ClusterID, Namespace: ns, Name: "gone", UID: fakeUID()}
	orphan, orphanSub := createOwnedNetwork(t, ours, "10.82.0.0/24")

	Eventually(t, 30*time.Second, 500*time.Millisecond, "this cluster's orphan collected", func() error {
		if NetworkExists(t, orphan.ID) {
			return fmt.Errorf("network %s still exists", orphan.ID)
		}
		return nil
	})
	if _, ok := GetSubnet(t, orphanSub.ID); ok {
		t.Errorf("the orphan's subnet %s survived", orphanSub.ID)
	}
	if CountLines(ctrl.Logs(), "Deleted orphaned Neutron network", orphan.ID) != 1 {
		t.Errorf("the log does not say that orphan %s was deleted", orphan.ID)
	}
	if v, err := ctrl.Metric("network_controller_orphans_collected_total"); err != nil || v != 1 {
		t.Errorf("orphans_collected_total = %v (%v), want 1", v, err)
	}

	// Make the live Network reconcile again, and let more resyncs run.
	SetGateway(t, ns, "live", "10.80.0.254")
	waitResyncs(t, ctrl, 3, 30*time.Second)
	after := waitGateway(t, ns, "live", "10.80.0.254")
	if after.Status.NetworkID != live.Status.NetworkID {
		t.Errorf("live Network's Neutron network changed: %s -> %s", live.Status.NetworkID, after.Status.NetworkID)
	}

	for _, f := range []struct {
		net   neutron.Network
		sub   neutron.Subnet
		owner neutron.Owner
	}{{f1, f1sub, foreignOrphan}, {f2, f2sub, foreignTwin}} {
		nets, err := Neutron(t).ListNetworks(Ctx(t, 30*time.Second), neutron.Filter{Tags: f.owner.Tags()})
		if err != nil {
			t.Fatal(err)
		}
		if len(nets) != 1 || nets[0].ID != f.net.ID {
			t.Errorf("other cluster's network %s: found %v by its tags, want it untouched", f.net.ID, ids(nets))
			continue
		}
		if !slices.Equal(sorted(nets[0].Tags), sorted(f.owner.Tags())) || nets[0].Description != neutron.ClusterDescription(f.owner.ClusterID) {
			t.Errorf("other cluster's network %s was modified: tags %v description %q", f.net.ID, nets[0].Tags, nets[0].Description)
		}
		sub, ok := GetSubnet(t, f.sub.ID)
		if !ok || sub.GatewayIP != f.sub.GatewayIP || sub.Description != f.sub.Description {
			t.Errorf("other cluster's subnet %s was modified or deleted: %+v (found %v)", f.sub.ID, sub, ok)
		}
	}
	// Our live Network still has exactly one Neutron network.
	byName, byTags := ownerNetworks(t, OwnerOf(ctrl.ClusterID, live))
	if len(byName) != 1 || len(byTags) != 1 {
		t.Errorf("live Network's Neutron networks: by name %v, by tags %v; want one", ids(byName), ids(byTags))
	}
}

func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// A young orphan survives while the grace period protects it.
func TestOrphanGracePeriodProtectsYoungNetworks(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-orphan-grace-period=1h", "-neutron-resync-period=2s"}})

	ours := neutron.Owner{ClusterID: ctrl.ClusterID, Namespace: ns, Name: "young", UID: fakeUID()}
	orphan, _ := createOwnedNetwork(t, ours, "10.83.0.0/24")
	waitResyncs(t, ctrl, 3, 30*time.Second)
	if !NetworkExists(t, orphan.ID) {
		t.Fatalf("orphan %s younger than the 1h grace period was deleted", orphan.ID)
	}
	if CountLines(ctrl.Logs(), "Deleted orphaned Neutron network") != 0 {
		t.Errorf("the controller collected an orphan despite the grace period")
	}
}

// A Network deleted while no controller ran, its finalizer removed by hand, leaves
// its Neutron network behind; the next controller collects it.
func TestOrphanLeftByForcedDeletionIsCollected(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	first := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID})
	CreateNetwork(t, ns, "forced", "10.84.0.0/24", "")
	n := WaitReady(t, ns, "forced", 60*time.Second)
	owner := OwnerOf(clusterID, n)
	first.Stop()

	DeleteNetwork(t, ns, "forced")
	MustKubectl(t, "patch", "network", "-n", ns, "forced", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	WaitGone(t, ns, "forced", 30*time.Second)
	if !NetworkExists(t, n.Status.NetworkID) {
		t.Fatalf("Neutron network %s vanished without a controller", n.Status.NetworkID)
	}

	second := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID,
		Args: []string{"-orphan-grace-period=0s", "-neutron-resync-period=2s"}})
	WaitNeutronEmpty(t, owner, 30*time.Second)
	if _, ok := GetSubnet(t, n.Status.SubnetID); ok {
		t.Errorf("subnet %s of the forcibly deleted Network survived", n.Status.SubnetID)
	}
	if CountLines(second.Logs(), "Deleted orphaned Neutron network", n.Status.NetworkID) != 1 {
		t.Errorf("the log does not say that %s was collected as an orphan", n.Status.NetworkID)
	}
}
