//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMakeRunUsesOnlyTheClusterNamed runs hack/run-local.sh (make run) with a stand-in for
// the controller that prints its flags, and a home whose ~/.kube/config names a cluster:
// without KUBECONFIG the controller is given the local cluster, never ~/.kube/config; with
// KUBECONFIG naming that file, that cluster (here one that does not answer, so the script
// stops and says so).
func TestMakeRunUsesOnlyTheClusterNamed(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	userKubeconfig := filepath.Join(home, ".kube", "config")
	if err := os.MkdirAll(filepath.Dir(userKubeconfig), 0o700); err != nil {
		t.Fatal(err)
	}
	// A cluster nobody serves: port 1 refuses at once.
	writeFileAt(t, userKubeconfig, 0o600, `apiVersion: v1
kind: Config
clusters: [{name: elsewhere, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: someone, user: {token: not-a-token}}]
contexts: [{name: elsewhere, context: {cluster: elsewhere, user: someone}}]
current-context: elsewhere
`)
	fake := filepath.Join(t.TempDir(), "controller")
	writeFileAt(t, fake, 0o755, "#!/bin/sh\necho \"controller flags: $*\"\n")
	// The local cluster and the noauth Neutron run (hack/e2e.sh): the script starts
	// nothing, and stops nothing it did not start.
	env := []string{"HOME=" + home, "NEUTRON_ENDPOINT=" + NeutronEndpoint, "KUBECONFIG="}
	local := filepath.Join(RepoRoot, "_output", "local", "kube", "kubeconfig")
	// In the local cluster the script grants namespace default Retain and import
	// (ClusterIdentity local-default); one it made goes again.
	if _, err := Kubectl(t, "get", "clusteridentity", "local-default"); err != nil {
		t.Cleanup(func() { Kubectl(t, "delete", "clusteridentity", "local-default", "--ignore-not-found") })
	}

	out, err := runWithEnv(t, env, "hack/run-local.sh", fake)
	if err != nil {
		t.Fatalf("hack/run-local.sh without KUBECONFIG: %v\n%s", err, out)
	}
	if !strings.Contains(out, "controller flags: -kubeconfig "+local+" ") {
		t.Errorf("without KUBECONFIG the controller was not given the local cluster %s:\n%s", local, out)
	}
	if strings.Contains(out, "controller flags: -kubeconfig "+userKubeconfig) {
		t.Errorf("without KUBECONFIG the controller was given %s:\n%s", userKubeconfig, out)
	}
	t.Logf("without KUBECONFIG:\n%s", LastLines(out, 4))

	env[len(env)-1] = "KUBECONFIG=" + userKubeconfig
	out, err = runWithEnv(t, env, "hack/run-local.sh", fake)
	if err == nil || strings.Contains(out, "controller flags:") {
		t.Fatalf("with KUBECONFIG naming a cluster that does not answer, the controller ran (err %v):\n%s", err, out)
	}
	if !strings.Contains(out, "the cluster in "+userKubeconfig+" does not answer") {
		t.Errorf("with KUBECONFIG=%s: want the script to say that cluster does not answer, got:\n%s", userKubeconfig, out)
	}
}

// runWithEnv runs a program from RepoRoot with env over this process's environment, and
// returns its output, stdout and stderr together.
func runWithEnv(t *testing.T, env []string, name string, args ...string) (string, error) {
	t.Helper()
	ctx := Ctx(t, 5*time.Minute)
	cmd := exec.CommandContext(ctx, filepath.Join(RepoRoot, name), args...)
	cmd.Dir = RepoRoot
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// writeFileAt writes content to path with mode.
func writeFileAt(t *testing.T, path string, mode os.FileMode, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
}
