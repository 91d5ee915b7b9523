//go:build e2e

package e2e

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// InClusterAs returns the options that run a controller as a pod of ServiceAccount
// namespace/serviceAccount would run it: with nothing but a token of that ServiceAccount,
// read through client-go's in-cluster configuration, and the pod's POD_NAMESPACE. It also
// returns a kubeconfig with the same token, for kubectl.
func InClusterAs(t *testing.T, namespace, serviceAccount string) (ControllerOptions, string) {
	t.Helper()
	// A token for the ServiceAccount, as the kubelet would mount it.
	token := strings.TrimSpace(MustKubectl(t, "create", "token", serviceAccount, "-n", namespace, "--duration=1h"))
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
	if want := "system:serviceaccount:" + namespace + ":" + serviceAccount; err != nil || who != want {
		t.Fatalf("kubectl auth whoami with the token = %q (%v), want %s", who, err, want)
	}

	// The service account folder client-go reads in a pod, in a private mount namespace:
	// a folder bind-mounted over /run (/var/run is a link to it here) for this process only.
	runDir := filepath.Join(t.TempDir(), "run")
	saDir := filepath.Join(runDir, "secrets", "kubernetes.io", "serviceaccount")
	if err := os.MkdirAll(saDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"token": []byte(token), "ca.crt": ca, "namespace": []byte(namespace)} {
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

	// No -kubeconfig: the in-cluster defaults. unshare gives the process a private mount
	// namespace in which runDir is bind-mounted over /run.
	return ControllerOptions{
		InCluster: true,
		Wrapper: []string{"unshare", "--mount", "--propagation", "private", "--",
			"sh", "-c", `set -e; mount --bind "$1" "$2"; shift 2; exec "$@"`, "sh", runDir, varRun},
		Env: []string{
			"HOME=" + t.TempDir(), // no ~/.kube/config to fall back to
			"KUBERNETES_SERVICE_HOST=" + server.Hostname(),
			"KUBERNETES_SERVICE_PORT=" + server.Port(),
			"POD_NAMESPACE=" + namespace,
		},
	}, saKubeconfig
}
