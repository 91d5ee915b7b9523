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
)

// A ClusterIdentity with a Secret delegates team-b's project to the namespaces with its
// label: their Networks name the identity, never see its Secret, and land in that
// project, while a namespace without the label naming it is refused with nothing made.
// The operator rotates the identity's application credential (a new one in the Secret,
// the old one deleted in Keystone) and the Networks go on without a restart.
func TestClusterIdentityDelegatesAProject(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ops, labelled, unlabelled := NewNamespace(t), NewNamespace(t), NewNamespace(t)
	label := "e2e-delegated-" + RandomSuffix(6)
	MustKubectl(t, "label", "namespace", labelled, label+"=yes")
	oldCred := ks.NewApplicationCredential(t, "team-b-user", "e2e-delegation-old-"+RandomSuffix(6))
	t.Cleanup(func() { _ = oldCred.delete() }) // gone already when the test got that far
	PutCredentialsSecret(t, ops, "team-b", map[string]string{"clouds.yaml": oldCred.CloudsYAML(ks.AuthURL, "prod")})
	identity := DelegateProject(t, map[string]string{label: "yes"}, ops, "team-b", "prod", samplecrdv1.IdentityAllow{})
	teamB := ks.ProjectID(t, TenantB)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{labelled, unlabelled},
		Args: append(ks.ControllerArgs(MemberCloud), "-retry-max-delay=3s"), Env: ks.ControllerEnv()})

	CreateDelegatedNetwork(t, labelled, "first", "10.86.0.0/24", identity)
	CreateDelegatedNetwork(t, unlabelled, "intruder", "10.86.1.0/24", identity)
	first := WaitReady(t, labelled, "first", 90*time.Second)
	if first.Status.ProjectID != teamB {
		t.Errorf("the delegated Network is in project %q, want team-b's %s", first.Status.ProjectID, teamB)
	}
	if !slices.Contains(ks.NetworkIDsSeenBy(t, TenantB), first.Status.NetworkID) {
		t.Errorf("team-b's user does not see network %s of the delegated Network", first.Status.NetworkID)
	}
	intruder := WaitReason(t, unlabelled, "intruder", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNamespaceNotSelected)
	if intruder.Status.NetworkID != "" || intruder.Status.ProjectID != "" || strings.Contains(intruder.ReadyCondition().Message, ops) {
		t.Errorf("refused Network has network %q, project %q and message %q; want nothing made and the Secret's place not told",
			intruder.Status.NetworkID, intruder.Status.ProjectID, intruder.ReadyCondition().Message)
	}
	waitIdentityStatus(t, identity, samplecrdv1.IdentityReasonDelegating, 1, 1)

	// Rotation: a new application credential in the Secret, then the old one deleted
	// (Keystone revokes its tokens): what follows needs the new one.
	newCred := ks.NewApplicationCredential(t, "team-b-user", "e2e-delegation-new-"+RandomSuffix(6))
	t.Cleanup(func() { _ = newCred.delete() })
	PutCredentialsSecret(t, ops, "team-b", map[string]string{"clouds.yaml": newCred.CloudsYAML(ks.AuthURL, "prod")})
	oldCred.Delete(t)
	CreateDelegatedNetwork(t, labelled, "second", "10.86.2.0/24", identity)
	if second := WaitReady(t, labelled, "second", 90*time.Second); second.Status.ProjectID != teamB {
		t.Errorf("the Network made after the rotation is in project %q, want %s", second.Status.ProjectID, teamB)
	}
	waitIdentityStatus(t, identity, samplecrdv1.IdentityReasonDelegating, 1, 2)
	if ctrl.Exited() {
		t.Fatalf("the controller exited during the rotation:\n%s", LastLines(ctrl.Logs(), 30))
	}
	logs := ctrl.Logs()
	for _, secret := range []string{oldCred.Secret, newCred.Secret} {
		if strings.Contains(logs, secret) {
			t.Error("the controller's log shows the identity's application credential secret")
		}
	}

	for _, n := range []struct{ ns, name string }{{labelled, "first"}, {labelled, "second"}, {unlabelled, "intruder"}} {
		DeleteNetwork(t, n.ns, n.name)
		WaitGone(t, n.ns, n.name, 90*time.Second)
	}
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, first), 30*time.Second)
}

// waitIdentityStatus waits for the identity's status to be of its generation, with Ready's
// reason and the counts.
func waitIdentityStatus(t *testing.T, name, reason string, namespaces, networks int32) {
	t.Helper()
	_, nets := Clients(t)
	Eventually(t, 30*time.Second, 500*time.Millisecond, fmt.Sprintf("ClusterIdentity %s to be %s with %d namespaces and %d Networks", name, reason, namespaces, networks), func() error {
		got, err := nets.SamplecrdV1().ClusterIdentities().Get(Ctx(t, 30*time.Second), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		ready := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionReady)
		if ready == nil || ready.Reason != reason || got.Status.Namespaces != namespaces || got.Status.Networks != networks ||
			got.Status.ObservedGeneration != got.Generation {
			return fmt.Errorf("status %+v", got.Status)
		}
		return nil
	})
}
