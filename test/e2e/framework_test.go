//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// TestMain checks the environment, builds the controller once (with the e2ecrash hook)
// and installs the CRD, then runs the tests.
func TestMain(m *testing.M) {
	Kubeconfig, _ = filepath.Abs(os.Getenv("KUBECONFIG"))
	NeutronEndpoint = os.Getenv("NEUTRON_ENDPOINT")
	if os.Getenv("KUBECONFIG") == "" || NeutronEndpoint == "" {
		msg := "e2e: KUBECONFIG (admin kubeconfig of a test cluster) and NEUTRON_ENDPOINT (URL of a noauth " +
			"Neutron API) must be set; run the suite with hack/e2e.sh, which starts a local Kubernetes control plane and neutron-server"
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "ERROR: "+msg+" (CI=true: end-to-end tests must not be skipped)")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, msg+"; skipping the end-to-end tests")
		os.Exit(0)
	}
	tmp, err := os.MkdirTemp("", "network-controller-e2e-")
	if err == nil {
		err = setUp(tmp)
	}
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

// setUp builds the controller into dir, installs the CRD and checks that Neutron answers.
func setUp(dir string) error {
	// go test runs in the package's folder, test/e2e.
	RepoRoot, _ = filepath.Abs(filepath.Join("..", ".."))
	ControllerBinary = filepath.Join(dir, "network-controller")
	start := time.Now()
	// Stamped as make build stamps it: the tests find the version in the servers' logs.
	for what, into := range map[string]*string{"version": &ControllerVersion, "commit": &ControllerCommit} {
		out, stderr, err := runCommand(time.Minute, "hack/version.sh", what)
		if err != nil {
			return fmt.Errorf("hack/version.sh %s: %w\n%s", what, err, stderr)
		}
		*into = strings.TrimSpace(out)
	}
	ldflags := "-X github.com/samplecrd/network-controller/pkg/buildinfo.version=" + ControllerVersion +
		" -X github.com/samplecrd/network-controller/pkg/buildinfo.commit=" + ControllerCommit
	if stdout, stderr, err := runCommand(10*time.Minute, "go", "build", "-tags", "e2ecrash", "-ldflags", ldflags, "-o", ControllerBinary, "."); err != nil {
		return fmt.Errorf("building the controller failed: %w\n%s%s", err, stdout, stderr)
	}
	fmt.Fprintf(os.Stderr, "e2e: built %s in %s\n", ControllerBinary, time.Since(start).Round(time.Millisecond))
	for _, args := range [][]string{
		{"apply", "-f", "crd/"},
		{"wait", "--for=condition=Established", "--timeout=60s", "crd/networks.samplecrd.k8s.io"},
	} {
		stdout, stderr, err := runCommand(2*time.Minute, "kubectl", append([]string{"--kubeconfig", Kubeconfig}, args...)...)
		// kubectl wait fails at once, instead of waiting, on a CRD created a moment ago
		// whose status has no conditions yet ("accessor error: <nil>"): ask again.
		for try := 0; err != nil && strings.Contains(stderr, "accessor error") && try < 10; try++ {
			time.Sleep(time.Second)
			stdout, stderr, err = runCommand(2*time.Minute, "kubectl", append([]string{"--kubeconfig", Kubeconfig}, args...)...)
		}
		if err != nil {
			return fmt.Errorf("kubectl %s: %w\n%s%s", strings.Join(args, " "), err, stdout, stderr)
		}
	}
	if err := checkControllerManager(); err != nil {
		return err
	}
	nc, err := neutronclient.ConnectEndpoint(NeutronEndpoint, nil)
	if err != nil {
		return fmt.Errorf("NEUTRON_ENDPOINT: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := nc.Ping(ctx); err != nil {
		return fmt.Errorf("Neutron at NEUTRON_ENDPOINT=%s does not answer: %w", NeutronEndpoint, err)
	}
	return nil
}

// checkControllerManager fails unless a kube-controller-manager serves the cluster: the
// tests delete namespaces and expect them to go. A new namespace gets its "default"
// ServiceAccount from it within seconds.
func checkControllerManager() error {
	ns := "e2e-setup-" + RandomSuffix(6)
	kubectl := func(args ...string) (string, error) {
		stdout, stderr, err := runCommand(time.Minute, "kubectl", append([]string{"--kubeconfig", Kubeconfig}, args...)...)
		return stdout + stderr, err
	}
	if out, err := kubectl("create", "namespace", ns); err != nil {
		return fmt.Errorf("creating namespace %s: %w\n%s", ns, err, out)
	}
	defer kubectl("delete", "namespace", ns, "--wait=false")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := kubectl("get", "serviceaccount", "default", "-n", ns); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("namespace %s got no default ServiceAccount in 60 s: no kube-controller-manager serves the cluster (hack/local-kube.sh starts one)", ns)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
