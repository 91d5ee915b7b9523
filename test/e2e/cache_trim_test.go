//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// The controller caches Networks without their managedFields and annotations (but its
// pause annotation), and writes their finalizer and status from those cached objects.
// Applied with kubectl, changed and deleted,
// a Network must keep in the API everything the cache leaves out: its managedFields
// (kubectl's and the controller's entries), labels and annotations, kubectl's
// last-applied-configuration among them. The count of cached Networks follows.
func TestWritesFromTheTrimmedCacheKeepWhatItLeavesOut(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})
	const name = "trimmed"
	manifest := func(gateway string) string {
		return WriteFile(t, "network.yaml", fmt.Sprintf(`apiVersion: samplecrd.k8s.io/v1
kind: Network
metadata:
  name: %s
  labels: {team: blue}
  annotations: {note: kept}
spec:
  cidr: 10.72.0.0/24
  gateway: %s
`, name, gateway))
	}

	MustKubectl(t, "apply", "-n", ns, "-f", manifest("10.72.0.1"))
	WaitReady(t, ns, name, 60*time.Second)
	checkKept(t, ns, name, "10.72.0.1")
	waitMetric(t, ctrl, "network_controller_cached_networks", nil, func(v float64) bool { return v == 1 }, "== 1")

	MustKubectl(t, "apply", "-n", ns, "-f", manifest("10.72.0.254"))
	Eventually(t, 60*time.Second, 250*time.Millisecond, "the new gateway to be Ready", func() error {
		n := GetNetwork(t, ns, name)
		if !n.IsReady() || n.Status.Gateway != "10.72.0.254" {
			return fmt.Errorf("%s, gateway %q", DescribeReady(n), n.Status.Gateway)
		}
		return nil
	})
	checkKept(t, ns, name, "10.72.0.254")

	MustKubectl(t, "delete", "-n", ns, "network", name, "--wait=false")
	WaitGone(t, ns, name, 60*time.Second)
	waitMetric(t, ctrl, "network_controller_cached_networks", nil, func(v float64) bool { return v == 0 }, "== 0")
}

// checkKept fails unless the Network in the API has its labels, annotations (kubectl's
// last-applied-configuration with gateway) and managedFields of kubectl and the controller.
func checkKept(t *testing.T, ns, name, gateway string) {
	t.Helper()
	n := GetNetwork(t, ns, name)
	if n.Labels["team"] != "blue" || n.Annotations["note"] != "kept" {
		t.Errorf("labels %v, annotations %v; want team=blue and note=kept", n.Labels, n.Annotations)
	}
	if applied := n.Annotations[lastApplied]; !containsAll(applied, []string{`"gateway":"` + gateway + `"`}) {
		t.Errorf("%s = %q, want the applied gateway %s", lastApplied, applied, gateway)
	}
	managers := map[string]bool{}
	for _, e := range n.ManagedFields {
		managers[e.Manager+"/"+e.Subresource] = true
	}
	for _, want := range []string{"kubectl-client-side-apply/", "network-controller/", "network-controller/status"} {
		if !managers[want] {
			t.Errorf("managedFields lack %q; have %v", want, managers)
		}
	}
	if !n.IsReady() || len(n.Finalizers) != 1 || n.Finalizers[0] != samplecrdv1.FinalizerName {
		t.Errorf("%s, finalizers %v; want Ready with the controller's finalizer", DescribeReady(n), n.Finalizers)
	}
}
