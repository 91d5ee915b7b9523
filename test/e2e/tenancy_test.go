//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Two namespaces, each with its Secret and project, beside a Network in the controller's
// own project: each Network's Neutron network is in its namespace's project, seen by
// that project's member user only. A Network naming a Secret of another namespace gets
// nothing; credentials that move to another project are refused, and restoring them
// lets the Network be deleted.
func TestTenantsEachInTheirOwnProject(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	projectA, projectB, projectOwn := ks.ProjectID(t, TenantA), ks.ProjectID(t, TenantB), ks.ProjectID(t, MemberCloud)
	nsA, nsB := NewNamespace(t), NewNamespace(t)
	PutCredentialsSecret(t, nsA, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	PutCredentialsSecret(t, nsB, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantB)})
	PutCredentialsSecret(t, nsA, "only-in-a", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	PutCredentialsSecret(t, nsA, "moving", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})

	ctrl := StartController(t, ControllerOptions{Namespaces: []string{nsA, nsB}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})

	CreateTenantNetwork(t, nsA, "a", "10.150.0.0/24", "openstack", TenantA)
	CreateTenantNetwork(t, nsB, "b", "10.150.0.0/24", "openstack", TenantB)
	CreateNetwork(t, nsA, "own", "10.151.0.0/24", "")
	CreateTenantNetwork(t, nsB, "borrower", "10.152.0.0/24", "only-in-a", TenantA)
	CreateTenantNetwork(t, nsA, "mover", "10.153.0.0/24", "moving", TenantA)

	want := map[string]string{nsA + "/a": projectA, nsB + "/b": projectB, nsA + "/own": projectOwn, nsA + "/mover": projectA}
	ready := map[string]*samplecrdv1.Network{}
	for key, project := range want {
		ns, name, _ := strings.Cut(key, "/")
		n := WaitReady(t, ns, name, 90*time.Second)
		ready[key] = n
		if n.Status.ProjectID != project {
			t.Errorf("%s: status.projectID %q, want %q", key, n.Status.ProjectID, project)
		}
		if got := projectOfNetwork(t, n.Status.NetworkID); got != project {
			t.Errorf("%s: Neutron network %s is in project %s, want %s", key, n.Status.NetworkID, got, project)
		}
	}
	netA, netB, netOwn := ready[nsA+"/a"].Status.NetworkID, ready[nsB+"/b"].Status.NetworkID, ready[nsA+"/own"].Status.NetworkID
	seenA, seenB := ks.NetworkIDsSeenBy(t, TenantA), ks.NetworkIDsSeenBy(t, TenantB)
	if !slices.Contains(seenA, netA) || slices.Contains(seenA, netB) || slices.Contains(seenA, netOwn) {
		t.Errorf("team-a's user sees %v; want its own %s and neither %s (team-b) nor %s (controller)", seenA, netA, netB, netOwn)
	}
	if !slices.Contains(seenB, netB) || slices.Contains(seenB, netA) || slices.Contains(seenB, netOwn) {
		t.Errorf("team-b's user sees %v; want its own %s and neither %s (team-a) nor %s (controller)", seenB, netB, netA, netOwn)
	}
	if wide := MustKubectl(t, "get", "networks", "-n", nsA, "-o", "wide"); !strings.Contains(wide, "PROJECT") || !strings.Contains(wide, projectA) {
		t.Errorf("kubectl get networks -o wide does not show the project %s:\n%s", projectA, wide)
	}

	// A Secret of another namespace is never used.
	borrower := WaitReason(t, nsB, "borrower", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonCredentialsSecretNotFound)
	if nets, _, err := NeutronOf(t, OwnerOf(ctrl.ClusterID, borrower)); err != nil || len(nets) > 0 {
		t.Errorf("Neutron networks of %s/borrower: %v (err %v), want none", nsB, ids(nets), err)
	}

	// The Secret now leads to team-b: refused, nothing created in either project.
	mover := ready[nsA+"/mover"]
	PutCredentialsSecret(t, nsA, "moving", map[string]string{"clouds.yaml": strings.ReplaceAll(ks.CloudsYAMLOf(t, TenantB), TenantB+":", TenantA+":")})
	WaitReason(t, nsA, "mover", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonCredentialsProjectChanged)
	if nets, _, err := NeutronOf(t, OwnerOf(ctrl.ClusterID, mover)); err != nil || len(nets) != 1 || nets[0].ID != mover.Status.NetworkID {
		t.Errorf("Neutron networks of %s/mover after the change: %v (err %v), want only %s", nsA, ids(nets), err, mover.Status.NetworkID)
	}
	// Deletion waits for the right credentials, and goes through once they are back.
	DeleteNetwork(t, nsA, "mover")
	PutCredentialsSecret(t, nsA, "moving", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})

	for key := range want {
		ns, name, _ := strings.Cut(key, "/")
		if name != "mover" {
			DeleteNetwork(t, ns, name)
		}
	}
	DeleteNetwork(t, nsB, "borrower")
	for key, n := range ready {
		ns, name, _ := strings.Cut(key, "/")
		WaitGone(t, ns, name, 90*time.Second)
		WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, n), 30*time.Second)
	}
	WaitGone(t, nsB, "borrower", 60*time.Second)
	logs := ctrl.Logs()
	for _, cloud := range []string{TenantA, TenantB} {
		for _, secret := range ks.SecretsOf(t, cloud) {
			if strings.Contains(logs, secret) {
				t.Errorf("the controller's log shows a secret of cloud %s", cloud)
			}
		}
	}
}
