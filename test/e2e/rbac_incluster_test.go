//go:build e2e

package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

const (
	deployNamespace      = "network-controller"
	deployServiceAccount = "network-controller"
	deployUser           = "system:serviceaccount:" + deployNamespace + ":" + deployServiceAccount
)

// rbacManifests are the deploy/ files that create the controller's identity and rights.
var rbacManifests = []string{
	"00-namespace.yaml",
	"10-serviceaccount.yaml",
	"20-clusterrole.yaml",
	"21-clusterrolebinding.yaml",
	"30-role-leader-election.yaml",
	"31-rolebinding-leader-election.yaml",
}

// applyDeployRBAC applies the RBAC part of deploy/ for real (idempotent; it stays: the
// namespace could not be deleted anyway without a kube-controller-manager).
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
// through create, gateway change and delete, with no "forbidden" anywhere in the log.
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
		"role.rbac.authorization.k8s.io/network-controller-leader-election",
		"rolebinding.rbac.authorization.k8s.io/network-controller-leader-election",
		"deployment.apps/network-controller",
		"poddisruptionbudget.policy/network-controller",
		"service/network-controller-metrics",
	} {
		if !strings.Contains(stdout, obj+" ") {
			t.Errorf("server dry run of deploy/ does not list %s:\n%s", obj, stdout)
		}
	}
	if n := strings.Count(stdout, "(server dry run)"); n != 9 {
		t.Errorf("server dry run of deploy/ handled %d objects, want 9:\n%s", n, stdout)
	}
	if strings.Contains(stdout, "secret/") {
		t.Errorf("kubectl apply -k deploy/ would apply a Secret:\n%s", stdout)
	}
	if strings.TrimSpace(stderr) != "" {
		t.Errorf("server dry run of deploy/ warned:\n%s", stderr)
	}

	checkRules(t)
	checkCanI(t)

	// A token for the ServiceAccount, as the kubelet would mount it.
	token := strings.TrimSpace(MustKubectl(t, "create", "token", deployServiceAccount, "-n", deployNamespace, "--duration=1h"))
	if strings.Count(token, ".") != 2 {
		t.Fatalf("kubectl create token returned %q, not a JWT", token)
	}
	cfg := AdminConfig(t)
	server, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatalf("parsing the apiserver URL %q: %v", cfg.Host, err)
	}
	ca := cfg.CAData
	if len(ca) == 0 && cfg.CAFile != "" {
		if ca, err = os.ReadFile(cfg.CAFile); err != nil {
			t.Fatal(err)
		}
	}
	if len(ca) == 0 {
		t.Fatalf("the admin kubeconfig has no CA")
	}

	// The token is this ServiceAccount's.
	saKubeconfig := filepath.Join(t.TempDir(), "sa.kubeconfig")
	if err := os.WriteFile(saKubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: sa
  user:
    token: %s
contexts:
- name: c
  context: {cluster: c, user: sa}
current-context: c
`, cfg.Host, base64.StdEncoding.EncodeToString(ca), token)), 0o600); err != nil {
		t.Fatal(err)
	}
	who, _, err := KubectlAs(t, saKubeconfig, "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}")
	if err != nil || who != deployUser {
		t.Fatalf("kubectl auth whoami with the token = %q (%v), want %s", who, err, deployUser)
	}

	// The service account folder client-go reads in a pod, in a private mount namespace:
	// a folder bind-mounted over /run (/var/run is a link to it here) for this process only.
	runDir := filepath.Join(t.TempDir(), "run")
	saDir := filepath.Join(runDir, "secrets", "kubernetes.io", "serviceaccount")
	if err := os.MkdirAll(saDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"token": []byte(token), "ca.crt": ca, "namespace": []byte(deployNamespace)} {
		if err := os.WriteFile(filepath.Join(saDir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	varRun, err := filepath.EvalSymlinks("/var/run")
	if err != nil {
		t.Fatalf("resolving /var/run: %v", err)
	}
	if os.Geteuid() != 0 {
		t.Fatalf("this test needs root for unshare --mount (the in-cluster token path %s is fixed in client-go)", filepath.Join(varRun, "secrets"))
	}

	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	lease := "e2e-rbac-" + RandomSuffix(8)
	t.Cleanup(func() {
		kube, _ := Clients(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = kube.CoordinationV1().Leases(deployNamespace).Delete(ctx, lease, metav1.DeleteOptions{})
	})
	// No -kubeconfig and leader election on with only the Lease name given: the in-cluster
	// defaults (Lease namespace from POD_NAMESPACE). unshare gives the process a private
	// mount namespace in which runDir is bind-mounted over /run.
	ctrl := StartController(t, ControllerOptions{
		ClusterID: clusterID,
		InCluster: true,
		Wrapper: []string{"unshare", "--mount", "--propagation", "private", "--",
			"sh", "-c", `set -e; mount --bind "$1" "$2"; shift 2; exec "$@"`, "sh", runDir, varRun},
		Env: []string{
			"HOME=" + t.TempDir(), // no ~/.kube/config to fall back to
			"KUBERNETES_SERVICE_HOST=" + server.Hostname(),
			"KUBERNETES_SERVICE_PORT=" + server.Port(),
			"POD_NAMESPACE=" + deployNamespace,
		},
		Args: []string{"-leader-elect=true", "-leader-elect-lease-name=" + lease},
	})
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
}

// expectedClusterRole is the ClusterRole deploy/20-clusterrole.yaml must grant, no more.
var expectedClusterRole = []rbacv1.PolicyRule{
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"networks"}, Verbs: []string{"get", "list", "watch", "update", "patch"}},
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"networks/status"}, Verbs: []string{"update", "patch"}},
	{APIGroups: []string{"samplecrd.k8s.io"}, Resources: []string{"networks/finalizers"}, Verbs: []string{"update"}},
	{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
	{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}},
	{APIGroups: []string{""}, Resources: []string{"namespaces"}, ResourceNames: []string{"kube-system"}, Verbs: []string{"get"}},
}

var expectedLeaseRole = []rbacv1.PolicyRule{
	{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "create", "update"}},
}
