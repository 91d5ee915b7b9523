//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// TestMain checks the environment, builds the controller once (with the e2ecrash hook)
// and installs the CRD, then runs the tests.
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	Kubeconfig = os.Getenv("KUBECONFIG")
	NeutronEndpoint = os.Getenv("NEUTRON_ENDPOINT")
	var missing []string
	if Kubeconfig == "" {
		missing = append(missing, "KUBECONFIG (admin kubeconfig of a test cluster)")
	}
	if NeutronEndpoint == "" {
		missing = append(missing, "NEUTRON_ENDPOINT (URL of a noauth Neutron API)")
	}
	if len(missing) > 0 {
		msg := "e2e: missing environment: " + strings.Join(missing, ", ") +
			"; run the suite with hack/e2e.sh, which starts a local kube-apiserver and neutron-server"
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "ERROR: "+msg+" (CI=true: end-to-end tests must not be skipped)")
			return 1
		}
		fmt.Fprintln(os.Stderr, msg+"; skipping the end-to-end tests")
		return 0
	}
	if abs, err := filepath.Abs(Kubeconfig); err == nil {
		Kubeconfig = abs
	}

	root, err := findRepoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	RepoRoot = root

	tmp, err := os.MkdirTemp("", "network-controller-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	ControllerBinary = filepath.Join(tmp, "network-controller")

	start := time.Now()
	build := exec.Command("go", "build", "-tags", "e2ecrash", "-o", ControllerBinary, ".")
	build.Dir = RepoRoot
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building the controller failed: %v\n%s\n", err, out)
		return 1
	}
	fmt.Fprintf(os.Stderr, "e2e: built %s in %s\n", ControllerBinary, time.Since(start).Round(time.Millisecond))

	if out, err := kubectl(2*time.Minute, "apply", "-f", filepath.Join(RepoRoot, "crd")); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: kubectl apply -f crd/ failed: %v\n%s\n", err, out)
		return 1
	}
	if out, err := kubectl(2*time.Minute, "wait", "--for=condition=Established", "--timeout=60s", "crd/"+CRDName); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: CRD %s did not become Established: %v\n%s\n", CRDName, err, out)
		return 1
	}
	nc, err := neutron.ConnectEndpoint(NeutronEndpoint, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: NEUTRON_ENDPOINT:", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := nc.Ping(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: Neutron at NEUTRON_ENDPOINT=%s does not answer: %v\n", NeutronEndpoint, err)
		return 1
	}
	return m.Run()
}
