//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A status restored from a backup, or written by anyone allowed to write networks/status,
// names a network the cluster never made: deleting the Network deletes its own network
// and leaves that one alone, with a Warning Event.
func TestForgedStatusDeletesNothingForeign(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns := NewNamespace(t)
	opts := ControllerOptions{Namespaces: []string{ns}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()}
	ctrl := StartController(t, opts)
	const name = "forged"
	n := CreateNetwork(t, ns, name, "10.163.0.0/24", "")
	ready := WaitReady(t, ns, name, 90*time.Second)
	// In the same project as the controller's networks, with none of their marks.
	foreign := CreateNetworkInProject(t, ks.ProjectID(t, MemberCloud), "database", "", nil)

	// While no controller runs: status now names the foreign network, and the Network
	// is deleted (its finalizer holds it).
	ctrl.Stop()
	MustKubectl(t, "patch", "network", name, "-n", ns, "--subresource=status", "--type=merge",
		"-p", `{"status":{"networkID":"`+foreign.ID+`"}}`)
	DeleteNetwork(t, ns, name)
	opts.ClusterID = ctrl.ClusterID
	StartController(t, opts)

	WaitGone(t, ns, name, 90*time.Second)
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, n), 30*time.Second)
	if !NetworkExists(t, foreign.ID) {
		t.Errorf("the foreign network %s that status named was deleted", foreign.ID)
	}
	if NetworkExists(t, ready.Status.NetworkID) {
		t.Errorf("the Network's own network %s is left", ready.Status.NetworkID)
	}
	WaitEvent(t, ns, name, "Warning", samplecrdv1.ReasonNeutronResourceNotOwned, foreign.ID, 30*time.Second)
}

// A network of another project, shared into the controller's project with Neutron RBAC
// and carrying the cluster's description and marks (one claims to be a live Network's,
// one an orphan's), is never adopted, repaired or collected: every list keeps to the
// token's project.
func TestSharedInNetworkIsLeftAlone(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	projectOwn, projectB := ks.ProjectID(t, MemberCloud), ks.ProjectID(t, TenantB)
	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Env: ks.ControllerEnv(),
		Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s", "-orphan-grace-period=1s")})
	live := CreateNetwork(t, ns, "live", "10.164.0.0/24", "")
	ready := WaitReady(t, ns, "live", 90*time.Second)

	description := neutron.ClusterDescription(clusterID)
	liveOwner := OwnerOf(clusterID, live)
	twin := CreateNetworkInProject(t, projectB, liveOwner.ResourceName(), description, liveOwner.Tags())
	orphanOwner := neutron.Owner{ClusterID: clusterID, Namespace: ns, Name: "gone", UID: "0ddba11-0000-4000-8000-00000000dead"}
	orphan := CreateNetworkInProject(t, projectB, orphanOwner.ResourceName(), description, orphanOwner.Tags())
	for _, id := range []string{twin.ID, orphan.ID} {
		ShareNetwork(t, id, projectOwn)
	}
	if seen := ks.NetworkIDsSeenBy(t, MemberCloud); !slices.Contains(seen, twin.ID) || !slices.Contains(seen, orphan.ID) {
		t.Fatalf("the controller's user does not see the shared networks %s and %s: %v", twin.ID, orphan.ID, seen)
	}

	for range 3 {
		ctrl.WaitNewLogLine(60*time.Second, "Neutron resync done")
	}
	for _, shared := range []NeutronNetwork{twin, orphan} {
		now, found := GetNeutronNetwork(t, shared.ID)
		switch {
		case !found:
			t.Errorf("shared network %s (%s) was deleted", shared.ID, shared.Name)
		case now.Description != shared.Description || !slices.Equal(slices.Sorted(slices.Values(now.Tags)), slices.Sorted(slices.Values(shared.Tags))):
			t.Errorf("shared network %s was changed: description %q, tags %v", shared.ID, now.Description, now.Tags)
		}
	}
	got := GetNetwork(t, ns, "live")
	if !got.IsReady() || got.Status.NetworkID != ready.Status.NetworkID {
		t.Errorf("Network live: %s, networkID %s, want Ready with %s", DescribeReady(got), got.Status.NetworkID, ready.Status.NetworkID)
	}
	for _, e := range Events(t, ns, "live") {
		if e.Type == "Warning" {
			t.Errorf("Warning Event on Network live: %s %s", e.Reason, e.Message)
		}
	}
	logs := ctrl.Logs()
	for _, id := range []string{twin.ID, orphan.ID} {
		if strings.Contains(logs, id) {
			t.Errorf("the controller's log mentions the shared network %s:\n%s", id, LastLines(logs, 30))
		}
	}

	DeleteNetwork(t, ns, "live")
	WaitGone(t, ns, "live", 60*time.Second)
	if !NetworkExists(t, twin.ID) || !NetworkExists(t, orphan.ID) {
		t.Error("deleting the live Network deleted a shared network")
	}
}

// A second cluster using this cluster ID makes every one of its networks look like an
// orphan here. The orphan collection stops at its breaker, says so in a metric, the log
// and an Event on the Lease, deletes nothing, and goes on once the orphans are few.
// The other cluster's networks are of a namespace that holds no Network here (elsewhere),
// which the controller watches with the Lease's: scoped to them, the test shares the
// cluster.
func TestOrphanBreakerWithReusedClusterID(t *testing.T) {
	t.Parallel()
	clusterID := NewClusterID(t)
	description := neutron.ClusterDescription(clusterID)
	leaseNS, elsewhere := NewNamespace(t), NewNamespace(t)
	const others = 12
	var made []neutron.Network
	for i := range others {
		owner := neutron.Owner{ClusterID: clusterID, Namespace: elsewhere, Name: fmt.Sprintf("net-%d", i), UID: fmt.Sprintf("0ther-c1u5-7e40-8000-%012d", i)}
		made = append(made, CreateForeignNetwork(t, owner.ResourceName(), description, owner.Tags()))
	}
	ctrl := StartController(t, ControllerOptions{ClusterID: clusterID, Namespaces: []string{leaseNS, elsewhere}, Args: []string{
		"-neutron-resync-period=2s", "-orphan-grace-period=1s",
		"-leader-elect=true", "-leader-elect-namespace=" + leaseNS, "-leader-elect-lease-name=e2e-breaker",
	}})

	Eventually(t, 60*time.Second, 500*time.Millisecond, "the orphan breaker to trip", func() error {
		v, err := ctrl.Metric("network_controller_orphan_collection_halted")
		if err != nil || v != 1 {
			return fmt.Errorf("network_controller_orphan_collection_halted = %v (%v), want 1", v, err)
		}
		return nil
	})
	if !strings.Contains(ctrl.Logs(), "Orphan collection halted") {
		t.Errorf("no log line says the orphan collection halted:\n%s", LastLines(ctrl.Logs(), 20))
	}
	kube, _ := Clients(t)
	Eventually(t, 30*time.Second, 500*time.Millisecond, "the OrphanCollectionHalted Event on the Lease", func() error {
		events, err := kube.CoreV1().Events(leaseNS).List(Ctx(t, 10*time.Second), metav1.ListOptions{FieldSelector: "reason=OrphanCollectionHalted"})
		if err != nil {
			return err
		}
		for _, e := range events.Items {
			if e.InvolvedObject.Kind == "Lease" && e.Type == "Warning" && strings.Contains(e.Message, fmt.Sprint(others)) {
				return nil
			}
		}
		return fmt.Errorf("%d Events with reason OrphanCollectionHalted, none a Warning on the Lease", len(events.Items))
	})
	for _, n := range made {
		if !NetworkExists(t, n.ID) {
			t.Errorf("network %s was collected past the breaker", n.ID)
		}
	}

	// Few enough to be real orphans: collected.
	for _, n := range made[:3] {
		DeleteNeutronNetworkTree(t, n.ID)
	}
	Eventually(t, 60*time.Second, 500*time.Millisecond, "the remaining orphans to be collected", func() error {
		for _, n := range made[3:] {
			if NetworkExists(t, n.ID) {
				return fmt.Errorf("network %s still exists", n.ID)
			}
		}
		if v, err := ctrl.Metric("network_controller_orphan_collection_halted"); err != nil || v != 0 {
			return fmt.Errorf("network_controller_orphan_collection_halted = %v (%v), want 0", v, err)
		}
		return nil
	})
}
