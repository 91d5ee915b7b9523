//go:build e2e

package node

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/samplecrd/network-controller/test/e2e"
)

// controllerNamespace is where hack/deploy-local.sh installs the controller.
const controllerNamespace = "network-controller"

// deployLocal runs hack/deploy-local.sh with args (kustomize, helm or remove), failing the
// test when it fails.
func deployLocal(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(e2e.RepoRoot, "hack", "deploy-local.sh"), args...)
	cmd.Dir = e2e.RepoRoot
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("hack/deploy-local.sh %s (%s):\n%s", strings.Join(args, " "), time.Since(start).Round(time.Second), e2e.LastLines(string(out), 15))
	if err != nil {
		t.Fatalf("hack/deploy-local.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// runRepo runs a program from the repository root with env added to this process's, and
// returns its output (stdout and stderr together).
func runRepo(t *testing.T, timeout time.Duration, env []string, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(e2e.RepoRoot, name), args...)
	if !strings.Contains(name, "/") {
		cmd = exec.CommandContext(ctx, name, args...)
	}
	cmd.Dir = e2e.RepoRoot
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s (%s):\n%s", name, strings.Join(args, " "), time.Since(start).Round(time.Second), e2e.LastLines(string(out), 10))
	return string(out), err
}

// getJSON runs kubectl get ... -o json into out.
func getJSON(t *testing.T, out any, args ...string) {
	t.Helper()
	raw := e2e.MustKubectl(t, append(append([]string{"get"}, args...), "-o", "json")...)
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		t.Fatalf("decoding kubectl get %s: %v", strings.Join(args, " "), err)
	}
}

// controllerPods returns the controller's Pods.
func controllerPods(t *testing.T) []corev1.Pod {
	t.Helper()
	var list corev1.PodList
	getJSON(t, &list, "pods", "--namespace", controllerNamespace, "-l", "app.kubernetes.io/name=network-controller")
	return list.Items
}

// readyPods returns the controller's Pods that are Running, Ready (their readiness probe
// passed) and not being deleted, and an error unless there are want of them.
func readyPods(t *testing.T, want int) ([]corev1.Pod, error) {
	var ready []corev1.Pod
	for _, pod := range controllerPods(t) {
		if pod.DeletionTimestamp != nil || pod.Status.Phase != corev1.PodRunning {
			continue
		}
		for _, c := range pod.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				ready = append(ready, pod)
			}
		}
	}
	if len(ready) != want {
		return nil, fmt.Errorf("%d of the controller's Pods Running and Ready, want %d", len(ready), want)
	}
	return ready, nil
}

// leaderLease returns the controller's leader election Lease.
func leaderLease(t *testing.T) coordinationv1.Lease {
	t.Helper()
	var lease coordinationv1.Lease
	getJSON(t, &lease, "lease", "network-controller", "--namespace", controllerNamespace)
	return lease
}

// holderPod is the Pod named in a Lease's holder identity (<pod>_<suffix>), or "".
func holderPod(lease coordinationv1.Lease) string {
	if lease.Spec.HolderIdentity == nil {
		return ""
	}
	pod, _, _ := strings.Cut(*lease.Spec.HolderIdentity, "_")
	return pod
}

// createNetwork creates a Network with cidr in namespace and waits until it is Ready; it
// returns its Neutron network ID.
func createNetwork(t *testing.T, namespace, name, cidr string) string {
	t.Helper()
	manifest := fmt.Sprintf("apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  cidr: %q\n", name, namespace, cidr)
	e2e.MustKubectl(t, "apply", "-f", e2e.WriteFile(t, name+".yaml", manifest))
	return readyNetworkID(t, namespace, name)
}

// readyNetworkID waits until the Network is Ready and returns its Neutron network ID.
func readyNetworkID(t *testing.T, namespace, name string) string {
	t.Helper()
	var id string
	e2e.Eventually(t, 2*time.Minute, time.Second, "Network "+namespace+"/"+name+" Ready", func() error {
		var network struct {
			Status struct {
				NetworkID  string             `json:"networkID"`
				Conditions []metav1.Condition `json:"conditions"`
			} `json:"status"`
		}
		raw, err := e2e.Kubectl(t, "get", "network", name, "--namespace", namespace, "-o", "json")
		if err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(raw), &network); err != nil {
			return err
		}
		for _, c := range network.Status.Conditions {
			if c.Type == "Ready" && c.Status == "True" && network.Status.NetworkID != "" {
				id = network.Status.NetworkID
				return nil
			}
		}
		return fmt.Errorf("not Ready: %+v", network.Status.Conditions)
	})
	return id
}

// processStatus is what the kernel says of one process of a Pod's container.
type processStatus struct {
	PID                        int
	UID, GID, NoNewPrivs       string
	Seccomp, CapEff, RootMount string
}

// controllerProcesses finds, on this host, the processes of the Pod with uid whose command
// is the controller (the node runs here), and reads their credentials and root mount.
func controllerProcesses(t *testing.T, uid string) []processStatus {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var found []processStatus
	for _, dir := range dirs {
		cgroup, err := os.ReadFile(filepath.Join(dir, "cgroup"))
		if err != nil || !strings.Contains(string(cgroup), "pod"+uid) {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join(dir, "comm"))
		if strings.TrimSpace(string(comm)) != "network-control" { // comm holds 15 bytes
			continue
		}
		status, err := os.ReadFile(filepath.Join(dir, "status"))
		if err != nil {
			continue
		}
		p := processStatus{}
		fmt.Sscan(filepath.Base(dir), &p.PID)
		for _, line := range strings.Split(string(status), "\n") {
			key, value, _ := strings.Cut(line, ":")
			value = strings.Join(strings.Fields(value), " ")
			switch key {
			case "Uid":
				p.UID = value
			case "Gid":
				p.GID = value
			case "NoNewPrivs":
				p.NoNewPrivs = value
			case "Seccomp":
				p.Seccomp = value
			case "CapEff":
				p.CapEff = value
			}
		}
		mounts, _ := os.ReadFile(filepath.Join(dir, "mountinfo"))
		for _, line := range strings.Split(string(mounts), "\n") {
			// mount ID, parent ID, major:minor, root, mount point, mount options, ...
			if fields := strings.Fields(line); len(fields) > 5 && fields[4] == "/" {
				p.RootMount = fields[5]
			}
		}
		found = append(found, p)
	}
	return found
}
