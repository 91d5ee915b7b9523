//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// retentionArgs make orphan collection as eager as it gets: no grace period, a Neutron
// resync every 2 s. A kept network that still carried a mark of the cluster would be
// collected or adopted within seconds.
var retentionArgs = []string{"-orphan-grace-period=0s", "-neutron-resync-period=2s"}

// A Network with deletionPolicy Retain, once deleted, leaves its Neutron network and subnet
// in place without any mark of the cluster, and nothing of the cluster touches them again:
// not the controller that released them, not a new one after a restart and two resyncs.
// The same with Delete still deletes them.
func TestRetainedNetworkIsKeptWithoutMarks(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	GrantPowers(t, ns, samplecrdv1.IdentityAllow{Retain: true})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: retentionArgs})

	kept := createWithPolicy(t, ns, "kept", "10.180.0.0/24", samplecrdv1.DeletionPolicyRetain)
	dropped := createWithPolicy(t, ns, "dropped", "10.180.1.0/24", samplecrdv1.DeletionPolicyDelete)
	if n, _ := GetNeutronNetwork(t, kept.Status.NetworkID); !slices.Contains(n.Tags, neutron.RetainTag) {
		t.Errorf("network %s of a Retain Network has tags %v, want %s among them", n.ID, n.Tags, neutron.RetainTag)
	}

	DeleteNetwork(t, ns, "kept")
	DeleteNetwork(t, ns, "dropped")
	WaitGone(t, ns, "kept", 30*time.Second)
	WaitGone(t, ns, "dropped", 30*time.Second)
	WaitEvent(t, ns, "kept", "Normal", "NeutronRetained", kept.Status.NetworkID, 30*time.Second)
	WaitNeutronEmpty(t, OwnerOf(clusterID, dropped), 30*time.Second)
	if _, ok := GetSubnet(t, dropped.Status.SubnetID); ok {
		t.Errorf("subnet %s of the Delete Network survived", dropped.Status.SubnetID)
	}

	net, sub := wantKeptWithoutMarks(t, clusterID, kept)
	waitResyncs(t, ctrl, 2, 30*time.Second)
	ctrl.Stop()
	restarted := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: retentionArgs})
	waitResyncs(t, restarted, 2, 60*time.Second)

	after, afterSub := wantKeptWithoutMarks(t, clusterID, kept)
	if after.RevisionNumber != net.RevisionNumber || afterSub.RevisionNumber != sub.RevisionNumber {
		t.Errorf("kept network and subnet changed after the release: revisions %d/%d, then %d/%d",
			net.RevisionNumber, sub.RevisionNumber, after.RevisionNumber, afterSub.RevisionNumber)
	}
	for _, c := range []*Controller{ctrl, restarted} {
		if n := CountLines(c.Logs(), kept.Status.NetworkID, "orphan"); n != 0 {
			t.Errorf("a controller's log names kept network %s in %d orphan lines", kept.Status.NetworkID, n)
		}
	}
}

// A Retain Network whose finalizer an admin removed by hand while no controller ran is
// released by the next controller's orphan collection, which the policy tag tells to keep
// it; the same with Delete is deleted.
func TestForceRemovedRetainedNetworkIsReleasedByOrphanCollection(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	GrantPowers(t, ns, samplecrdv1.IdentityAllow{Retain: true})
	first := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID})
	kept := createWithPolicy(t, ns, "kept-forced", "10.181.0.0/24", samplecrdv1.DeletionPolicyRetain)
	dropped := createWithPolicy(t, ns, "dropped-forced", "10.181.1.0/24", samplecrdv1.DeletionPolicyDelete)
	first.Stop()

	for _, name := range []string{"kept-forced", "dropped-forced"} {
		DeleteNetwork(t, ns, name)
		MustKubectl(t, "patch", "network", "-n", ns, name, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
		WaitGone(t, ns, name, 30*time.Second)
	}
	if !NetworkExists(t, kept.Status.NetworkID) || !NetworkExists(t, dropped.Status.NetworkID) {
		t.Fatal("a Neutron network vanished without a controller")
	}

	second := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: retentionArgs})
	WaitNeutronEmpty(t, OwnerOf(clusterID, dropped), 30*time.Second)
	Eventually(t, 30*time.Second, 500*time.Millisecond, "the Retain orphan released", func() error {
		if CountLines(second.Logs(), "Released orphaned Neutron network", kept.Status.NetworkID) != 1 {
			return fmt.Errorf("no log line says %s was released", kept.Status.NetworkID)
		}
		return nil
	})
	net, sub := wantKeptWithoutMarks(t, clusterID, kept)
	if v, err := second.Metric("network_controller_orphans_released_total"); err != nil || v != 1 {
		t.Errorf("orphans_released_total = %v (%v), want 1", v, err)
	}
	if CountLines(second.Logs(), "Deleted orphaned Neutron network", dropped.Status.NetworkID) != 1 {
		t.Errorf("the log does not say that %s was collected", dropped.Status.NetworkID)
	}

	waitResyncs(t, second, 2, 30*time.Second)
	after, afterSub := wantKeptWithoutMarks(t, clusterID, kept)
	if after.RevisionNumber != net.RevisionNumber || afterSub.RevisionNumber != sub.RevisionNumber {
		t.Errorf("released network and subnet changed again: revisions %d/%d, then %d/%d",
			net.RevisionNumber, sub.RevisionNumber, after.RevisionNumber, afterSub.RevisionNumber)
	}
}

// createWithPolicy creates a Network with that deletion policy, waits until it is Ready,
// and returns it. A retained network belongs to no one afterwards, so the test deletes it
// at its end.
func createWithPolicy(t *testing.T, ns, name, cidr string, policy samplecrdv1.DeletionPolicy) *samplecrdv1.Network {
	t.Helper()
	CreateNetworkWithSpec(t, ns, name, samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}, DeletionPolicy: policy})
	n := WaitReady(t, ns, name, 60*time.Second)
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, n.Status.NetworkID) })
	return n
}

// wantKeptWithoutMarks checks that the network and subnet the Network's status named are
// still in Neutron, named <namespace>/<name>, with no description, no tag and nothing else
// naming the cluster or the Network's UID, and returns them.
func wantKeptWithoutMarks(t *testing.T, clusterID string, n *samplecrdv1.Network) (NeutronNetwork, NeutronSubnet) {
	t.Helper()
	net, ok := GetNeutronNetwork(t, n.Status.NetworkID)
	if !ok {
		t.Fatalf("kept network %s was deleted", n.Status.NetworkID)
	}
	sub, ok := GetSubnet(t, n.Status.SubnetID)
	if !ok {
		t.Fatalf("kept subnet %s was deleted", n.Status.SubnetID)
	}
	want := n.Namespace + "/" + n.Name
	if net.Name != want || net.Description != "" || len(net.Tags) != 0 || net.names(clusterID, "k8s-cluster=") || net.names(string(n.UID), "k8s-uid=") {
		t.Errorf("kept network: name %q, description %q, tags %v; want %q, none, none", net.Name, net.Description, net.Tags, want)
	}
	if sub.Name != want || sub.Description != "" || sub.NetworkID != net.ID || sub.CIDR != n.Spec.CIDR {
		t.Errorf("kept subnet: name %q, description %q, network %s, cidr %s; want %q, none, %s, %s",
			sub.Name, sub.Description, sub.NetworkID, sub.CIDR, want, net.ID, n.Spec.CIDR)
	}
	return net, sub
}
