//go:build e2e

// Package node tests the controller as a cluster runs it: the Pods of deploy/ and of the
// Helm chart on the real kubelet of hack/local-node.sh, against the local Keystone and
// Neutron. hack/node-e2e.sh (make test-node) starts a control plane and node of its own
// and runs it.
package node

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/samplecrd/network-controller/test/e2e"
)

func TestMain(m *testing.M) {
	kubeconfig := os.Getenv("KUBECONFIG")
	if kubeconfig == "" || os.Getenv("E2E_NODE") != "1" {
		msg := "node e2e: KUBECONFIG (a cluster with hack/local-node.sh's node) and E2E_NODE=1 must be set; run hack/node-e2e.sh"
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "ERROR: "+msg+" (CI=true: end-to-end tests must not be skipped)")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, msg+"; skipping")
		os.Exit(0)
	}
	// The e2e helpers (kubectl, Eventually, Prometheus) run from the repository root.
	e2e.RepoRoot, _ = filepath.Abs(filepath.Join("..", ".."))
	e2e.Kubeconfig, _ = filepath.Abs(kubeconfig)
	// The noauth Neutron, for what the tests read as the cloud's admin (hack/node-e2e.sh).
	e2e.NeutronEndpoint = os.Getenv("NEUTRON_ENDPOINT")
	os.Exit(m.Run())
}
