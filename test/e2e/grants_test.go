//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A namespace on the controller's own cloud, whose project other namespaces share, asks
// for the five powers that reach beyond its own resources: deletionPolicy Retain,
// sharedWith another project, an import, the operator's router of the project and a QoS
// policy of the project. With no grant each is refused (NotGranted) and nothing is made;
// with a ClusterIdentity granting them they work. With the grant taken away in the
// default mode (warn) nothing is withdrawn and each says so (GrantMissing); a Retain
// Network deleted then waits, its network untouched. After a switch to enforce the share
// (of a paused Network) and the interface are withdrawn, the QoS policy is taken off (the
// project has no default policy), the import is refused, and the Retain Network still
// waits, until its deletionPolicy says Delete.
func TestGrantsInTheSharedProject(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	project, teamB := ks.ProjectID(t, MemberCloud), ks.ProjectID(t, TenantB)
	ns := NewNamespace(t)
	sfx := RandomSuffix(6)
	asMember := ks.DriverAs(t, MemberCloud)
	edge := ks.CreateRouterAs(t, MemberCloud, "edge-"+sfx)
	outside, _ := CreateOutsideNetwork(t, "outside-"+sfx, project, false, "10.84.9.0/24")
	gold := createQoSPolicy(t, "gold-"+sfx, project)
	identity := GrantPowers(t, ns, samplecrdv1.IdentityAllow{})
	clusterID := NewClusterID(t)
	args := append(ks.ControllerArgs(MemberCloud), "-retry-max-delay=3s")
	controller := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: args, Env: ks.ControllerEnv()})

	specs := map[string]samplecrdv1.NetworkSpec{
		"kept":     {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.0.0/24"}, DeletionPolicy: samplecrdv1.DeletionPolicyRetain},
		"shared":   {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.1.0/24"}, SharedWith: []samplecrdv1.ProjectID{samplecrdv1.ProjectID(teamB)}},
		"imported": {Import: &samplecrdv1.NetworkImport{NetworkID: outside.ID}},
		"routed":   {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.2.0/24"}, Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: edge.Name}}},
		"qos":      {SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.84.3.0/24"}, QoSPolicy: &samplecrdv1.NeutronRef{Name: "gold-" + sfx}},
	}
	grantOf := map[string]string{"kept": "allow.retain", "shared": "allow.sharedWith", "imported": "allow.import", "routed": "allow.existingRouters",
		"qos": "allow.qosPolicies"}
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
		ExistingRouters: []samplecrdv1.NeutronRef{{ID: edge.ID}}, QoSPolicies: []samplecrdv1.NeutronRef{{Name: "gold-" + sfx}}})
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
	qos := waitQoS(t, ns, "qos", gold)
	waitIdentityStatus(t, identity, samplecrdv1.IdentityReasonGranting, 1, int32(len(specs)))

	// Taken away while the controller warns: everything in effect stays, each Network
	// says which grant it lacks beside a Ready that stays True, and the metric counts them.
	SetGrant(t, identity, samplecrdv1.IdentityAllow{})
	for name := range specs {
		n := waitGrantMissing(t, ns, name, grantOf[name])
		if !n.IsReady() {
			t.Errorf("%s: %s after the grant went in warn mode; want Ready kept", name, DescribeReady(n))
		}
		t.Logf("warn: %s keeps %s, Ready %s", name, grantOf[name], DescribeReady(n))
		WaitEvent(t, ns, name, "Warning", samplecrdv1.ReasonKeptWithoutGrant, grantOf[name], 30*time.Second)
	}
	Eventually(t, 30*time.Second, time.Second, "a Network per power in network_controller_networks_without_grant", func() error {
		for _, power := range grants.PowerNames {
			if v, err := controller.Metric("network_controller_networks_without_grant", "power="+power); err != nil || v != 1 {
				return fmt.Errorf("power %s: %v, %v", power, v, err)
			}
		}
		return nil
	})
	policies := sharesOf(t, asMember, shared.Status.NetworkID)
	if len(policies) != 1 {
		t.Errorf("warn mode: network %s is shared by %+v, want its one policy kept", shared.Status.NetworkID, policies)
	}
	wantInterfaces(t, asMember, edge.ID, routed.Status.SubnetID)
	if got := neutronQoS(t, qos.Status.NetworkID); got != gold {
		t.Errorf("warn mode: network %s has QoS policy %q, want %s kept", qos.Status.NetworkID, got, gold)
	}
	t.Logf("warn: network %s still shared by %d policy; router %s still has subnet %s; network %s still has QoS policy %s",
		shared.Status.NetworkID, len(policies), edge.ID, routed.Status.SubnetID, qos.Status.NetworkID, gold)

	// A Retain Network deleted without its grant is neither kept nor deleted: it waits.
	DeleteNetwork(t, ns, "kept")
	waiting := WaitReason(t, ns, "kept", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonRetainNotGranted)
	if msg := waiting.ReadyCondition().Message; !strings.Contains(msg, "allow.retain") || !strings.Contains(msg, "spec.deletionPolicy to Delete") {
		t.Errorf("RetainNotGranted says %q; want the grant and deletionPolicy Delete named as the ways out", msg)
	}
	t.Logf("warn: the deleted Retain Network waits: %s", waiting.ReadyCondition().Message)

	// The tenant pauses its shared Network; the operator enforces grants.
	MustKubectl(t, "-n", ns, "annotate", "network", "shared", samplecrdv1.AnnotationReconcile+"="+samplecrdv1.ReconcilePaused)
	WaitNetwork(t, ns, "shared", 30*time.Second, "Paused", func(n *samplecrdv1.Network) error {
		if !meta.IsStatusConditionTrue(n.Status.Conditions, samplecrdv1.ConditionPaused) {
			return fmt.Errorf("conditions %+v", n.Status.Conditions)
		}
		return nil
	})
	controller.Stop()
	StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: append(args, "-grant-enforcement=enforce"), Env: ks.ControllerEnv()})
	Eventually(t, 90*time.Second, time.Second, "the paused Network's share to be withdrawn", func() error {
		if policies := sharesOf(t, asMember, shared.Status.NetworkID); len(policies) != 0 {
			return fmt.Errorf("network %s still shared by %+v", shared.Status.NetworkID, policies)
		}
		return nil
	})
	for _, name := range []string{"shared", "routed", "imported", "qos"} {
		n := WaitReason(t, ns, name, 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNotGranted)
		t.Logf("enforce: %s is NotGranted: %s", name, n.ReadyCondition().Message)
	}
	wantInterfaces(t, asMember, edge.ID)
	if got := neutronQoS(t, qos.Status.NetworkID); got != "" {
		t.Errorf("enforce: network %s has QoS policy %q, want none (the project has no default policy)", qos.Status.NetworkID, got)
	}
	if n, found := GetNeutronNetwork(t, kept.Status.NetworkID); !found || !slices.Contains(n.Tags, neutron.RetainTag) {
		t.Errorf("enforce: the waiting Retain Network's network %s: found %v, tags %v; want it kept with its Retain mark", kept.Status.NetworkID, found, n.Tags)
	} else {
		t.Logf("enforce: the waiting Retain Network's network %s is still in Neutron with %s", n.ID, neutron.RetainTag)
	}

	// The user's way out: deletionPolicy Delete.
	MustKubectl(t, "-n", ns, "patch", "network", "kept", "--type=merge", "-p", `{"spec":{"deletionPolicy":"Delete"}}`)
	WaitGone(t, ns, "kept", 60*time.Second)
	if _, found := GetNeutronNetwork(t, kept.Status.NetworkID); found {
		t.Errorf("network %s outlives its Network, deleted with deletionPolicy Delete", kept.Status.NetworkID)
	}
	MustKubectl(t, "-n", ns, "annotate", "network", "shared", samplecrdv1.AnnotationReconcile+"-")
	for _, name := range []string{"shared", "routed", "imported", "qos"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 60*time.Second)
	}
	if _, found := GetNeutronNetwork(t, outside.ID); !found {
		t.Errorf("the imported network %s was deleted with its import", outside.ID)
	}
}

// waitGrantMissing waits until the Network says, in its GrantMissing condition, that it
// keeps what grant allowed.
func waitGrantMissing(t testing.TB, ns, name, grant string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 90*time.Second, "GrantMissing naming "+grant, func(n *samplecrdv1.Network) error {
		c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionGrantMissing)
		if c == nil || c.Status != metav1.ConditionTrue || !strings.Contains(c.Message, grant) {
			return fmt.Errorf("GrantMissing %+v", c)
		}
		return nil
	})
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
