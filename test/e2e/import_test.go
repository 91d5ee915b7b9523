//go:build e2e

package e2e

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// revisions returns the revision_number of each network and subnet by ID.
func revisions(t *testing.T, nets []NeutronNetwork, subnets []NeutronSubnet) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, n := range nets {
		got, ok := GetNeutronNetwork(t, n.ID)
		if !ok {
			t.Fatalf("network %s is gone", n.ID)
		}
		out["network "+n.ID] = got.RevisionNumber
	}
	for _, s := range subnets {
		got, ok := GetSubnet(t, s.ID)
		if !ok {
			t.Fatalf("subnet %s is gone", s.ID)
		}
		out["subnet "+s.ID] = got.RevisionNumber
	}
	return out
}

func createImport(t *testing.T, ns, name string, ref samplecrdv1.NetworkImport, cidr string) {
	t.Helper()
	CreateNetworkWithSpec(t, ns, name, samplecrdv1.NetworkSpec{Import: &ref, SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}})
}

// Networks made outside the controller (the project's own, and one the admin shares with
// every project) are imported by ID and by name by a controller running as the project's
// member user: status reports them, and nothing in Neutron changes (revision numbers
// equal before, across two resyncs, and after the objects are deleted). A missing name,
// an ambiguous name, two subnets without cidr and a network deleted under its import each
// get their own reason; the missing name becomes Ready once the network is made outside,
// and the deleted network is never recreated.
func TestImportedNetworksAreReadOnly(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	project := ks.ProjectID(t, MemberCloud)
	ns := NewNamespace(t)
	sfx := RandomSuffix(6)

	own, ownSubnets := CreateOutsideNetwork(t, "app-"+sfx, project, false, "10.190.0.0/24")
	shared, sharedSubnets := CreateOutsideNetwork(t, "public-"+sfx, "admin-project-"+sfx, true, "10.190.1.0/24")
	dual, dualSubnets := CreateOutsideNetwork(t, "dual-"+sfx, project, false, "10.190.2.0/24", "10.190.3.0/24")
	twinA, _ := CreateOutsideNetwork(t, "twin-"+sfx, project, false, "10.190.4.0/24")
	twinB, _ := CreateOutsideNetwork(t, "twin-"+sfx, project, false, "10.190.5.0/24")
	doomed, _ := CreateOutsideNetwork(t, "doomed-"+sfx, project, false, "10.190.6.0/24")
	watched := []NeutronNetwork{own, shared, dual}
	watchedSubnets := slices.Concat(ownSubnets, sharedSubnets, dualSubnets)
	before := revisions(t, watched, watchedSubnets)

	GrantPowers(t, ns, samplecrdv1.IdentityAllow{Import: true})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s"), Env: ks.ControllerEnv()})

	createImport(t, ns, "own-by-id", samplecrdv1.NetworkImport{NetworkID: own.ID}, "")
	createImport(t, ns, "own-by-name", samplecrdv1.NetworkImport{NetworkName: own.Name}, "")
	createImport(t, ns, "shared-by-id", samplecrdv1.NetworkImport{NetworkID: shared.ID}, "")
	createImport(t, ns, "shared-by-name", samplecrdv1.NetworkImport{NetworkName: shared.Name}, "10.190.1.0/24")
	createImport(t, ns, "dual-chosen", samplecrdv1.NetworkImport{NetworkID: dual.ID}, "10.190.3.0/24")
	createImport(t, ns, "dual-unchosen", samplecrdv1.NetworkImport{NetworkID: dual.ID}, "")
	createImport(t, ns, "twins", samplecrdv1.NetworkImport{NetworkName: "twin-" + sfx}, "")
	createImport(t, ns, "later", samplecrdv1.NetworkImport{NetworkName: "later-" + sfx}, "")
	createImport(t, ns, "doomed", samplecrdv1.NetworkImport{NetworkID: doomed.ID}, "")

	for name, want := range map[string]struct {
		network NeutronNetwork
		subnet  NeutronSubnet
	}{
		"own-by-id": {own, ownSubnets[0]}, "own-by-name": {own, ownSubnets[0]},
		"shared-by-id": {shared, sharedSubnets[0]}, "shared-by-name": {shared, sharedSubnets[0]},
		"dual-chosen": {dual, dualSubnets[1]},
	} {
		n := WaitReady(t, ns, name, 60*time.Second)
		s := n.Status
		if s.NetworkID != want.network.ID || s.SubnetID != want.subnet.ID || s.Gateway != want.subnet.GatewayIP ||
			s.MTU != neutronMTU(t, want.network.ID) || s.ProjectID != project || s.EnableDHCP == nil || *s.EnableDHCP != want.subnet.EnableDHCP {
			t.Errorf("%s: status %+v, want network %s, subnet %s, gateway %s, MTU %d, project %s",
				name, s, want.network.ID, want.subnet.ID, want.subnet.GatewayIP, neutronMTU(t, want.network.ID), project)
		}
		if c := n.ReadyCondition(); c.Reason != samplecrdv1.ReasonImported {
			t.Errorf("%s: Ready reason %s, want Imported", name, c.Reason)
		}
		if len(n.Finalizers) != 0 {
			t.Errorf("%s: finalizers %q, want none", name, n.Finalizers)
		}
	}
	WaitReady(t, ns, "doomed", 60*time.Second)
	for name, want := range map[string]struct{ reason, says string }{
		"dual-unchosen": {samplecrdv1.ReasonImportSubnetAmbiguous, dualSubnets[0].ID},
		"twins":         {samplecrdv1.ReasonImportAmbiguous, twinA.ID},
		"later":         {samplecrdv1.ReasonImportNotFound, "later-" + sfx},
	} {
		n := WaitReason(t, ns, name, 60*time.Second, metav1.ConditionFalse, want.reason)
		if msg := n.ReadyCondition().Message; !strings.Contains(msg, want.says) ||
			(name == "twins" && !strings.Contains(msg, twinB.ID)) || (name == "dual-unchosen" && !strings.Contains(msg, dualSubnets[1].ID)) {
			t.Errorf("%s: message %q does not name the candidates", name, msg)
		}
	}
	if out := MustKubectl(t, "get", "networks", "-n", ns); !strings.Contains(out, "IMPORT") || !strings.Contains(out, shared.Name) || !strings.Contains(out, own.ID) {
		t.Errorf("kubectl get networks does not show the imports:\n%s", out)
	}

	waitResyncs(t, ctrl, 2, 30*time.Second)
	if mid := revisions(t, watched, watchedSubnets); !maps.Equal(mid, before) {
		t.Errorf("Neutron changed under the imports across two resyncs: revisions %v, then %v", before, mid)
	}

	// Made outside after the Network asked for it: the next resync finds it.
	later, laterSubnets := CreateOutsideNetwork(t, "later-"+sfx, project, false, "10.190.7.0/24")
	if n := WaitReady(t, ns, "later", 30*time.Second); n.Status.NetworkID != later.ID || n.Status.SubnetID != laterSubnets[0].ID {
		t.Errorf("later: status %+v, want network %s and subnet %s", n.Status, later.ID, laterSubnets[0].ID)
	}

	// Deleted under its import: reported, never recreated.
	DeleteNeutronNetworkTree(t, doomed.ID)
	gone := WaitReason(t, ns, "doomed", 30*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonImportedNetworkDeleted)
	WaitEvent(t, ns, "doomed", "Warning", samplecrdv1.ReasonImportedNetworkDeleted, doomed.ID, 30*time.Second)
	waitResyncs(t, ctrl, 2, 30*time.Second)
	if NetworkExists(t, doomed.ID) || gone.Status.NetworkID != doomed.ID {
		t.Errorf("doomed: network %s exists again, or status names %q", doomed.ID, gone.Status.NetworkID)
	}
	if n := CountLines(ctrl.Logs(), "Created Neutron"); n != 0 {
		t.Errorf("the controller logged %d creates; an import creates nothing", n)
	}

	// Deleting the objects needs nothing from the controller: no finalizer, no call.
	for _, name := range []string{"own-by-id", "own-by-name", "shared-by-id", "shared-by-name", "dual-chosen", "dual-unchosen", "twins", "later", "doomed"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 10*time.Second)
	}
	waitResyncs(t, ctrl, 2, 30*time.Second)
	if after := revisions(t, watched, watchedSubnets); !maps.Equal(after, before) {
		t.Errorf("Neutron changed after the imports were deleted: revisions %v, then %v", before, after)
	}
	for _, n := range watched {
		if got, _ := GetNeutronNetwork(t, n.ID); len(got.Tags) != 0 || got.Description != "" || got.Name != n.Name {
			t.Errorf("network %s is now %q %q %v, want it as it was made", n.ID, got.Name, got.Description, got.Tags)
		}
	}
	t.Logf("revisions kept: %v", before)
}
