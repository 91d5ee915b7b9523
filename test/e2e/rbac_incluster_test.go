//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/shard"
)

const (
	deployNamespace      = "network-controller"
	deployServiceAccount = "network-controller"
	deployUser           = "system:serviceaccount:" + deployNamespace + ":" + deployServiceAccount
	// identitySecretsNamespace holds the Secrets of delegating ClusterIdentity objects.
	identitySecretsNamespace = "network-controller-identities"
)

// rbacManifests are the deploy/ files that create the controller's identity and rights,
// and the policy that limits what it may change of a Secret.
var rbacManifests = []string{
	"base/00-namespace.yaml",
	"base/10-serviceaccount.yaml",
	"base/25-clusterrole-credentials.yaml",
	"20-clusterrole.yaml",
	"21-clusterrolebinding.yaml",
	"base/30-role-leader-election.yaml",
	"base/31-rolebinding-leader-election.yaml",
	"base/32-clusterrole-metrics-auth.yaml",
	"base/33-clusterrole-metrics-reader.yaml",
	"base/34-clusterrole-grants.yaml",
	"base/36-identity-secrets.yaml",
	"base/37-keystone-refusals.yaml",
	"base/70-validatingadmissionpolicy.yaml",
}

// applyDeployRBAC applies the RBAC part of deploy/ for real (idempotent; it stays, since
// other tests run controllers with this identity at the same time).
func applyDeployRBAC(t *testing.T) {
	t.Helper()
	args := []string{"apply"}
	for _, f := range rbacManifests {
		args = append(args, "-f", filepath.Join("deploy", f))
	}
	MustKubectl(t, args...)
}

// TestRBACInCluster applies the RBAC objects of deploy/, checks that all of deploy/ passes
// a server-side dry run, checks what the ServiceAccount may and may not do, and then runs
// the controller with nothing but a token of that ServiceAccount through client-go's
// in-cluster configuration (leader election on, as in the Deployment): a Network must go
// through create, gateway change and delete, with no "forbidden" anywhere in the log. The
// controller watches the test's namespace only, so that the tests beside it keep their
// Networks; the rights in every namespace are checked with can-i.
func TestRBACInCluster(t *testing.T) {
	t.Parallel()
	applyDeployRBAC(t)

	// All of deploy/ (Deployment, PDB, Service too) is accepted by the apiserver, and
	// deploy/examples/ (the Secret with credentials) is not part of it.
	stdout, stderr, err := KubectlAs(t, Kubeconfig, "apply", "--dry-run=server", "-k", "deploy/")
	if err != nil {
		t.Fatalf("kubectl apply --dry-run=server -k deploy/: %v\n%s%s", err, stdout, stderr)
	}
	for _, obj := range []string{
		"namespace/network-controller", "serviceaccount/network-controller",
		"clusterrole.rbac.authorization.k8s.io/network-controller",
		"clusterrolebinding.rbac.authorization.k8s.io/network-controller",
		"clusterrole.rbac.authorization.k8s.io/network-controller-credentials",
		"clusterrole.rbac.authorization.k8s.io/network-controller-metrics-auth",
		"clusterrolebinding.rbac.authorization.k8s.io/network-controller-metrics-auth",
		"clusterrole.rbac.authorization.k8s.io/network-controller-metrics-reader",
		"clusterrole.rbac.authorization.k8s.io/network-controller-grants",
		"clusterrolebinding.rbac.authorization.k8s.io/network-controller-grants",
		"namespace/" + identitySecretsNamespace,
		"role.rbac.authorization.k8s.io/network-controller-identity-secrets",
		"rolebinding.rbac.authorization.k8s.io/network-controller-identity-secrets",
		"networkpolicy.networking.k8s.io/network-controller",
		"role.rbac.authorization.k8s.io/network-controller-leader-election",
		"rolebinding.rbac.authorization.k8s.io/network-controller-leader-election",
		"role.rbac.authorization.k8s.io/network-controller-keystone-refusals",
		"rolebinding.rbac.authorization.k8s.io/network-controller-keystone-refusals",
		"deployment.apps/network-controller",
		"poddisruptionbudget.policy/network-controller",
		"service/network-controller-metrics",
		"validatingadmissionpolicy.admissionregistration.k8s.io/network-controller-secrets",
		"validatingadmissionpolicybinding.admissionregistration.k8s.io/network-controller-secrets",
	} {
		if !strings.Contains(stdout, obj+" ") {
			t.Errorf("server dry run of deploy/ does not list %s:\n%s", obj, stdout)
		}
	}
	if n := strings.Count(stdout, "(server dry run)"); n != 23 {
		t.Errorf("server dry run of deploy/ handled %d objects, want 23:\n%s", n, stdout)
	}
	if strings.Contains(stdout, "secret/") {
		t.Errorf("kubectl apply -k deploy/ would apply a Secret:\n%s", stdout)
	}
	if strings.TrimSpace(stderr) != "" {
		t.Errorf("server dry run of deploy/ warned:\n%s", stderr)
	}

	checkRules(t)
	checkCanI(t)

	inCluster, _ := InClusterAs(t, deployNamespace, deployServiceAccount)
	cfg := AdminConfig(t)

	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	lease := "e2e-rbac-" + RandomSuffix(8)
	t.Cleanup(func() {
		kube, _ := Clients(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = kube.CoordinationV1().Leases(deployNamespace).Delete(ctx, lease, metav1.DeleteOptions{})
	})
	// Leader election on with only the Lease name given: the in-cluster defaults (Lease
	// namespace from POD_NAMESPACE).
	inCluster.ClusterID = clusterID
	inCluster.Namespaces = []string{ns}
	inCluster.Args = []string{"-leader-elect=true", "-leader-elect-lease-name=" + lease}
	ctrl := StartController(t, inCluster)
	ctrl.WaitConnected()

	Eventually(t, 30*time.Second, 200*time.Millisecond, "the in-cluster controller to lead", func() error {
		if ctrl.Exited() {
			code, _ := ctrl.Wait(0)
			t.Fatalf("the in-cluster controller exited with %d:\n%s", code, LastLines(ctrl.Logs(), 40))
		}
		holder, _, err := leaseHolder(t, deployNamespace, lease)
		if err != nil {
			return err
		}
		if want := controllerIdentity(t, ctrl.PID()); holder != want {
			return fmt.Errorf("Lease %s/%s holder %q, want %q", deployNamespace, lease, holder, want)
		}
		return ExpectStatus(ctrl.HealthURL+"/readyz", 200)
	})
	logs := ctrl.Logs()
	if !strings.Contains(logs, "Using the inClusterConfig") || strings.Contains(logs, "error creating inClusterConfig") {
		t.Fatalf("the controller did not use the in-cluster configuration:\n%s", LastLines(logs, 30))
	}
	if !strings.Contains(logs, `apiserver="`+cfg.Host+`"`) {
		t.Errorf("log does not show the connection to %s", cfg.Host)
	}

	// Create: Ready, with this controller's Neutron network and subnet as specified.
	const name = "rbac-net"
	n := CreateNetwork(t, ns, name, "10.75.0.0/24", "10.75.0.1")
	WaitReady(t, ns, name, 60*time.Second)
	owner := OwnerOf(clusterID, n)
	var subnetID string
	Eventually(t, 30*time.Second, 250*time.Millisecond, "this controller's Neutron subnet 10.75.0.0/24 gateway 10.75.0.1", func() error {
		_, sub, err := OwnedResources(t, owner)
		if err != nil {
			return err
		}
		if sub.CIDR != "10.75.0.0/24" || sub.GatewayIP != "10.75.0.1" {
			return fmt.Errorf("subnet %s is %s gateway %s", sub.ID, sub.CIDR, sub.GatewayIP)
		}
		subnetID = sub.ID
		return nil
	})
	// Events are written with the ServiceAccount's identity (this controller's subnet ID
	// is in the message).
	WaitEvent(t, ns, name, "Normal", "SubnetCreated", subnetID, 30*time.Second)

	// Update: the gateway change is followed in Neutron and in status.
	SetGateway(t, ns, name, "10.75.0.254")
	Eventually(t, 60*time.Second, 250*time.Millisecond, "gateway 10.75.0.254 in Neutron", func() error {
		_, sub, err := OwnedResources(t, owner)
		if err != nil {
			return err
		}
		if sub.ID != subnetID || sub.GatewayIP != "10.75.0.254" {
			return fmt.Errorf("subnet %s gateway %s", sub.ID, sub.GatewayIP)
		}
		return nil
	})
	WaitNetwork(t, ns, name, 60*time.Second, "status.gateway 10.75.0.254", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.Gateway != "10.75.0.254" {
			return fmt.Errorf("%s, status.gateway %s", DescribeReady(n), n.Status.Gateway)
		}
		return nil
	})
	WaitEvent(t, ns, name, "Normal", "GatewayUpdated", subnetID, 30*time.Second)

	// Delete: the Neutron side and then the object go.
	DeleteNetwork(t, ns, name)
	WaitGone(t, ns, name, 60*time.Second)
	WaitNeutronEmpty(t, owner, 30*time.Second)

	// SIGTERM: exit 0, Lease released (an update, with the Role's rights).
	ctrl.Signal(syscall.SIGTERM)
	if code, err := ctrl.Wait(30 * time.Second); err != nil || code != 0 {
		t.Errorf("the in-cluster controller exited with %d (%v) after SIGTERM, want 0", code, err)
	}
	if holder, _, err := leaseHolder(t, deployNamespace, lease); err != nil || holder != "" {
		t.Errorf("Lease holder after shutdown = %q (%v), want released", holder, err)
	}
	logs = ctrl.Logs()
	for i, line := range strings.Split(logs, "\n") {
		if strings.Contains(strings.ToLower(line), "forbidden") {
			t.Errorf("log line %d mentions forbidden: %s", i+1, line)
		}
	}
	for _, want := range []string{"Became leader", "Created Neutron network", "Updated Neutron subnet gateway", "Deleted Neutron resources and removed finalizer", "Released leadership"} {
		if !strings.Contains(logs, want) {
			t.Errorf("in-cluster controller log lacks %q", want)
		}
	}
	shardsInCluster(t, inCluster, ns)
}

// shardsInCluster runs the controller with -shards under the Lease Role of deploy/: it
// lists its group's Leases, creates and renews the shards' and its own, reconciles, and
// on SIGTERM releases the shards and deletes its own Lease, all without a refusal.
func shardsInCluster(t *testing.T, opts ControllerOptions, ns string) {
	group := "e2e-rbac-shards-" + RandomSuffix(8)
	opts.Args = []string{"-leader-elect=true", "-leader-elect-lease-name=" + group, "-shards=2"}
	shardLeases := []string{shard.ShardLeaseName(group, shard.Shard{Index: 0, Count: 2}), shard.ShardLeaseName(group, shard.Shard{Index: 1, Count: 2})}
	t.Cleanup(func() {
		kube, _ := Clients(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, l := range shardLeases {
			_ = kube.CoordinationV1().Leases(deployNamespace).Delete(ctx, l, metav1.DeleteOptions{})
		}
	})
	ctrl := StartController(t, opts)
	for _, l := range shardLeases {
		waitLeaseHolder(t, deployNamespace, l, controllerIdentity(t, ctrl.PID()), 60*time.Second)
	}
	CreateNetwork(t, ns, "rbac-shards", "10.75.1.0/24", "")
	WaitReady(t, ns, "rbac-shards", 60*time.Second)
	DeleteNetwork(t, ns, "rbac-shards")
	WaitGone(t, ns, "rbac-shards", 60*time.Second)
	ctrl.Signal(syscall.SIGTERM)
	if code, err := ctrl.Wait(30 * time.Second); err != nil || code != 0 {
		t.Errorf("the sharded in-cluster controller exited with %d (%v) after SIGTERM, want 0", code, err)
	}
	kube, _ := Clients(t)
	leases, err := kube.CoordinationV1().Leases(deployNamespace).List(Ctx(t, 30*time.Second), metav1.ListOptions{LabelSelector: shard.LabelGroup + "=" + group})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range leases.Items {
		if l.Labels[shard.LabelRole] != "shard" || (l.Spec.HolderIdentity != nil && *l.Spec.HolderIdentity != "") {
			t.Errorf("Lease %s after the sharded controller stopped: role %s, holder %v; want only released shards' Leases", l.Name, l.Labels[shard.LabelRole], l.Spec.HolderIdentity)
		}
	}
	for i, line := range strings.Split(ctrl.Logs(), "\n") {
		if strings.Contains(strings.ToLower(line), "forbidden") {
			t.Errorf("sharded controller log line %d mentions forbidden: %s", i+1, line)
		}
	}
}

// expectedClusterRole is the ClusterRole deploy/20-clusterrole.yaml must grant, no more.
var expectedClusterRole = []rbacv1.PolicyRule{
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"networks"}, Verbs: []string{"get", "list", "watch", "update", "patch"}},
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"networks/status"}, Verbs: []string{"update", "patch"}},
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"networks/finalizers"}, Verbs: []string{"update"}},
	{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
	{APIGroups: []string{""}, Resources: []string{"namespaces"}, ResourceNames: []string{"kube-system"}, Verbs: []string{"get"}},
}

// expectedCredentialsRole is what deploy/base/25-clusterrole-credentials.yaml grants in a
// namespace that binds it.
var expectedCredentialsRole = []rbacv1.PolicyRule{
	{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch", "patch"}},
}

// expectedMetricsAuthRole is what deploy/base/32-clusterrole-metrics-auth.yaml grants for
// -metrics-secure.
var expectedMetricsAuthRole = []rbacv1.PolicyRule{
	{APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"tokenreviews"}, Verbs: []string{"create"}},
	{APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"subjectaccessreviews"}, Verbs: []string{"create"}},
}

// expectedGrantsRole is what deploy/base/34-clusterrole-grants.yaml grants: the
// ClusterIdentity objects and the namespaces' labels they select by.
var expectedGrantsRole = []rbacv1.PolicyRule{
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"clusteridentities"}, Verbs: []string{"get", "list", "watch"}},
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"clusteridentities/status"}, Verbs: []string{"update"}},
	{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"list", "watch"}},
}

// expectedRefusalsRole is what deploy/base/37-keystone-refusals.yaml grants: its one
// ConfigMap of counts of refused token requests.
var expectedRefusalsRole = []rbacv1.PolicyRule{
	{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"create"}},
	{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "patch"}, ResourceNames: []string{"network-controller-keystone-refusals"}},
}

// expectedLeaseRole is what deploy/base/30-role-leader-election.yaml grants: the leader's
// Lease, or with -shards the shards' and the replicas' (listed by label, a replica's own
// deleted when it stops).
var expectedLeaseRole = []rbacv1.PolicyRule{
	{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "list", "create", "update", "delete"}},
	{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
}
