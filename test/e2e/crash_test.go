//go:build e2e

package e2e

import (
	"slices"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// crashAt creates a Network, runs a controller that dies (exit 3) at the given point of
// the create, and checks what the crash left: the finalizer is on the object (it went on
// before anything was created in Neutron) and status records no network.
func crashAt(t *testing.T, ns, name, cidr, clusterID, point string) *samplecrdv1.Network {
	t.Helper()
	CreateNetwork(t, ns, name, cidr, "")
	crashing := StartController(t, ControllerOptions{
		Namespaces: []string{ns},
		ClusterID:  clusterID,
		Env:        []string{"NETWORK_CONTROLLER_CRASH_AT=" + point},
	})
	code, err := crashing.Wait(60 * time.Second)
	if err != nil {
		t.Fatalf("controller with NETWORK_CONTROLLER_CRASH_AT=%s did not crash: %v\n%s", point, err, LastLines(crashing.Logs(), 30))
	}
	if code != 3 {
		t.Fatalf("crashing controller exited with %d, want 3:\n%s", code, LastLines(crashing.Logs(), 30))
	}
	if CountLines(crashing.Logs(), "e2ecrash: exiting at "+point) != 1 {
		t.Errorf("controller log does not show the crash at %s:\n%s", point, LastLines(crashing.Logs(), 30))
	}
	n := GetNetwork(t, ns, name)
	if !slices.Contains(n.Finalizers, samplecrdv1.FinalizerName) {
		t.Errorf("after the crash at %s the Network has finalizers %v, want %s (it must go on before the Neutron create)",
			point, n.Finalizers, samplecrdv1.FinalizerName)
	}
	if n.Status.NetworkID != "" || n.Status.SubnetID != "" {
		t.Errorf("after the crash at %s status already has networkID %q subnetID %q", point, n.Status.NetworkID, n.Status.SubnetID)
	}
	return n
}

// Items 2 and 3 (finalizer first, adopt before create): after a crash right after the
// Neutron create (before tagging) or right after tagging (before any status write), the
// next controller adopts the network the crashed one made; Neutron holds exactly one.
func TestCrashRecoveryAdoptsNetwork(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		point      string
		wantTagged bool
	}{
		{"network-created", false},
		{"network-tagged", true},
	} {
		t.Run(tc.point, func(t *testing.T) {
			ns := NewNamespace(t)
			clusterID := NewClusterID(t)
			n := crashAt(t, ns, "crashy", "10.50.0.0/24", clusterID, tc.point)
			owner := OwnerOf(clusterID, n)

			// What the crash left in Neutron: one network, found by its name, tagged
			// or not depending on the crash point, and no subnet.
			byName, byTags := ownerNetworks(t, owner)
			if len(byName) != 1 {
				t.Fatalf("after the crash Neutron has %d networks with the owner's name, want 1", len(byName))
			}
			orphanID := byName[0].ID
			if tagged := len(byTags) == 1 && byTags[0].ID == orphanID; tagged != tc.wantTagged {
				t.Errorf("after the crash at %s the network is tagged=%v (tags %v), want %v", tc.point, tagged, byName[0].Tags, tc.wantTagged)
			}
			if _, subs, _ := NeutronOf(t, owner); len(subs) != 0 {
				t.Errorf("subnets exist after a crash before the subnet create: %v", ids(subs))
			}

			ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID})
			ready := WaitReady(t, ns, "crashy", 60*time.Second)
			if ready.Status.NetworkID != orphanID {
				t.Errorf("status.networkID = %s, want the network the crashed controller created (%s)", ready.Status.NetworkID, orphanID)
			}
			byName, byTags = ownerNetworks(t, owner)
			if len(byName) != 1 || len(byTags) != 1 || byName[0].ID != orphanID || byTags[0].ID != orphanID {
				t.Errorf("Neutron networks of the owner: by name %v, by tags %v; want exactly [%s] for both",
					ids(byName), ids(byTags), orphanID)
			}
			_, subs, err := NeutronOf(t, owner)
			if err != nil {
				t.Fatal(err)
			}
			if len(subs) != 1 || subs[0].ID != ready.Status.SubnetID || subs[0].NetworkID != orphanID {
				t.Errorf("Neutron subnets of the owner = %+v, want exactly status.subnetID %s on %s", subs, ready.Status.SubnetID, orphanID)
			}
			if !tc.wantTagged {
				WaitEvent(t, ns, "crashy", "Normal", "NetworkAdopted", orphanID, 30*time.Second)
				if CountLines(ctrl.Logs(), "Adopted Neutron network", orphanID) == 0 {
					t.Errorf("the controller log does not mention the adoption of %s", orphanID)
				}
			}
			for _, e := range Events(t, ns, "crashy") {
				if e.Reason == "NetworkCreated" {
					t.Errorf("a controller reported creating a second network: %s", e.Message)
				}
			}
		})
	}
}

// A Network whose controller crashed before writing any status (so
// status names no Neutron resource) is deleted; the next controller still finds its
// network by the ownership marks, deletes it, and lets the object go.
func TestDeletionWithoutStatusAfterCrash(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	n := crashAt(t, ns, "doomed", "10.51.0.0/24", clusterID, "network-tagged")
	owner := OwnerOf(clusterID, n)
	byName, _ := ownerNetworks(t, owner)
	if len(byName) != 1 {
		t.Fatalf("after the crash Neutron has %d networks of the owner, want 1", len(byName))
	}
	leftID := byName[0].ID

	DeleteNetwork(t, ns, "doomed")
	stuck := GetNetwork(t, ns, "doomed")
	if stuck.DeletionTimestamp == nil || !slices.Contains(stuck.Finalizers, samplecrdv1.FinalizerName) {
		t.Fatalf("deleted Network without a controller: deletionTimestamp %v finalizers %v; want it held by %s",
			stuck.DeletionTimestamp, stuck.Finalizers, samplecrdv1.FinalizerName)
	}

	StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID})
	WaitGone(t, ns, "doomed", 60*time.Second)
	if NetworkExists(t, leftID) {
		t.Errorf("Neutron network %s survived the deletion of its Network", leftID)
	}
	WaitNeutronEmpty(t, owner, 10*time.Second)
}
