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

// A namespace on the controller's own cloud, whose project other namespaces share, asks
// for the four powers that reach beyond its own resources: deletionPolicy Retain,
// sharedWith another project, an import and the operator's router of the project. With no
// grant each is refused (NotGranted) and nothing is made; with a ClusterIdentity granting
// them they work; with the grant taken away the share and the interface are removed, and
// the Retain Network is deleted with its resources, with a Warning.
func TestGrantsInTheSharedProject(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	project, teamB := ks.ProjectID(t, MemberCloud), ks.ProjectID(t, TenantB)
	ns := NewNamespace(t)
	sfx := RandomSuffix(6)
	asMember := ks.DriverAs(t, MemberCloud)
	edge := ks.CreateRouterAs(t, MemberCloud, "edge-"+sfx)
	outside, _ := createOutsideNetwork(t, "outside-"+sfx, project, false, "10.84.9.0/24")
	identity := GrantPowers(t, ns, samplecrdv1.IdentityAllow{})
	StartController(t, ControllerOptions{Namespaces: []string{ns},
		Args: append(ks.ControllerArgs(MemberCloud), "-retry-max-delay=3s"), Env: ks.ControllerEnv()})

	specs := map[string]samplecrdv1.NetworkSpec{
		"kept":     {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.0.0/24"}, DeletionPolicy: samplecrdv1.DeletionPolicyRetain},
		"shared":   {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.1.0/24"}, SharedWith: []samplecrdv1.ProjectID{samplecrdv1.ProjectID(teamB)}},
		"imported": {Import: &samplecrdv1.NetworkImport{NetworkID: outside.ID}},
		"routed":   {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.2.0/24"}, Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: edge.Name}}},
	}
	grantOf := map[string]string{"kept": "allow.retain", "shared": "allow.sharedWith", "imported": "allow.import", "routed": "allow.existingRouters"}
	for name, spec := range specs {
		CreateNetworkWithSpec(t, ns, name, spec)
	}
	for name := range specs {
		n := WaitReason(t, ns, name, 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNotGranted)
		if n.Status.NetworkID != "" || n.Status.Router != nil || len(n.Status.SharedWith) != 0 {
			t.Errorf("%s refused, but its status names network %q, router %+v, shares %v; want nothing made", name, n.Status.NetworkID, n.Status.Router, n.Status.SharedWith)
		}
		WaitEvent(t, ns, name, "Warning", samplecrdv1.ReasonNotGranted, grantOf[name], 30*time.Second)
	}
	wantInterfaces(t, asMember, edge.ID)

	SetGrant(t, identity, samplecrdv1.IdentityAllow{Retain: true, Import: true, SharedWith: []samplecrdv1.ProjectID{samplecrdv1.ProjectID(teamB)},
		ExistingRouters: []samplecrdv1.NeutronRef{{ID: edge.ID}}})
	kept := WaitReady(t, ns, "kept", 90*time.Second)
	if n, _ := GetNeutronNetwork(t, kept.Status.NetworkID); !slices.Contains(n.Tags, neutron.RetainTag) {
		t.Errorf("network %s of the granted Retain Network has tags %v, want %s", n.ID, n.Tags, neutron.RetainTag)
	}
	shared := WaitNetwork(t, ns, "shared", 90*time.Second, "Ready, shared with team-b", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || len(n.Status.SharedWith) != 1 {
			return fmt.Errorf("%s, sharedWith %v", DescribeReady(n), n.Status.SharedWith)
		}
		return nil
	})
	if policies := sharesOf(t, asMember, shared.Status.NetworkID); len(policies) != 1 || policies[0].TargetProject != teamB {
		t.Errorf("network %s is shared by %+v, want one policy for team-b", shared.Status.NetworkID, policies)
	}
	if imported := WaitReady(t, ns, "imported", 90*time.Second); imported.Status.NetworkID != outside.ID {
		t.Errorf("the import reports network %s, want %s", imported.Status.NetworkID, outside.ID)
	}
	routed := WaitRouted(t, ns, "routed", edge.ID, 1)
	wantInterfaces(t, asMember, edge.ID, routed.Status.SubnetID)
	waitIdentityStatus(t, identity, samplecrdv1.IdentityReasonGranting, 1, int32(len(specs)))

	// Taken away: the share and the interface are undone, every Network says why.
	SetGrant(t, identity, samplecrdv1.IdentityAllow{})
	for name := range specs {
		WaitReason(t, ns, name, 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNotGranted)
	}
	Eventually(t, 60*time.Second, time.Second, "the share to be removed", func() error {
		if policies := sharesOf(t, asMember, shared.Status.NetworkID); len(policies) != 0 {
			return fmt.Errorf("network %s still shared by %+v", shared.Status.NetworkID, policies)
		}
		return nil
	})
	wantInterfaces(t, asMember, edge.ID)

	DeleteNetwork(t, ns, "kept")
	WaitGone(t, ns, "kept", 60*time.Second)
	WaitEvent(t, ns, "kept", "Warning", "RetainNotGranted", "allow.retain", 30*time.Second)
	if _, found := GetNeutronNetwork(t, kept.Status.NetworkID); found {
		t.Errorf("network %s of a Retain Network without the grant outlives it", kept.Status.NetworkID)
	}
	for _, name := range []string{"shared", "routed", "imported"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 60*time.Second)
	}
	if _, found := GetNeutronNetwork(t, outside.ID); !found {
		t.Errorf("the imported network %s was deleted with its import", outside.ID)
	}
}

// -own-cloud-namespace-selector keeps the controller's own cloud for the namespaces it
// selects: a Network of another namespace is refused (CredentialsRefRequired) with
// nothing made, until the operator labels its namespace.
func TestOwnCloudNamespaceSelector(t *testing.T) {
	t.Parallel()
	in, out := NewNamespace(t), NewNamespace(t)
	label := "e2e-own-cloud-" + RandomSuffix(6)
	MustKubectl(t, "label", "namespace", in, label+"=yes")
	clusterID := NewClusterID(t)
	StartController(t, ControllerOptions{Namespaces: []string{in, out}, ClusterID: clusterID,
		Args: []string{"-own-cloud-namespace-selector=" + label + "=yes", "-retry-max-delay=3s"}})

	CreateNetwork(t, in, "inside", "10.85.0.0/24", "")
	CreateNetwork(t, out, "outside", "10.85.1.0/24", "")
	WaitReady(t, in, "inside", 60*time.Second)
	refused := WaitReason(t, out, "outside", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonCredentialsRefRequired)
	if refused.Status.NetworkID != "" || !strings.Contains(refused.ReadyCondition().Message, label+"=yes") {
		t.Errorf("refused Network has network %q and message %q; want nothing made and the selector named", refused.Status.NetworkID, refused.ReadyCondition().Message)
	}

	MustKubectl(t, "label", "namespace", out, label+"=yes")
	WaitReady(t, out, "outside", 60*time.Second)
	for ns, name := range map[string]string{in: "inside", out: "outside"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 60*time.Second)
	}
}
