//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHelmChartInstall installs the chart on the local cluster as a release of its own
// (names prefixed with the release, so it meets no other test's objects), upgrades it and
// uninstalls it. Without a node its Pods stay Pending; what this proves is that the
// apiserver takes every object (the CRDs already there, the ValidatingAdmissionPolicy's CEL,
// the ClusterIdentity against its schema) and that helm uninstall leaves nothing behind.
func TestHelmChartInstall(t *testing.T) {
	t.Parallel()
	release := "helm-e2e-" + RandomSuffix(5)
	fullname := release + "-network-controller"
	values := fmt.Sprintf(`
image: {repository: registry.example.com/network-controller, tag: v1.2.3}
credentials: {roleBindings: [%[1]s]}
metrics: {readers: [{namespace: %[1]s, name: prometheus}]}
clusterIdentities:
  items:
    %[1]s-own-cloud:
      # No namespace carries this label: the identity grants nothing to the other tests.
      namespaceSelector: {matchLabels: {%[1]s: "true"}}
      allow: {retain: true}
`, release)
	t.Cleanup(func() {
		// Idempotent: the release may be gone already.
		Kubectl(t, "delete", "namespace", release, fullname+"-identities", "--ignore-not-found", "--wait=false")
	})
	Helm(t, "install", release, ChartDir, "--namespace", release, "--create-namespace", "-f", WriteFile(t, "values.yaml", values))

	cluster := []string{
		"clusterrole/" + fullname, "clusterrole/" + fullname + "-credentials", "clusterrole/" + fullname + "-metrics-reader",
		"clusterrolebinding/" + fullname + "-metrics-reader", "clusteridentity/" + release + "-own-cloud",
		"validatingadmissionpolicy/" + fullname + "-secrets", "namespace/" + fullname + "-identities",
	}
	namespaced := []string{"deployment/" + fullname, "serviceaccount/" + fullname, "service/" + fullname + "-metrics",
		"rolebinding/" + fullname + "-credentials", "networkpolicy/" + fullname, "poddisruptionbudget/" + fullname}
	MustKubectl(t, append([]string{"get", "-o", "name"}, cluster...)...)
	MustKubectl(t, append([]string{"get", "-o", "name", "--namespace", release}, namespaced...)...)
	image := MustKubectl(t, "get", "deployment", fullname, "--namespace", release, "-o", "jsonpath={.spec.template.spec.containers[0].image} {.spec.replicas}")
	if image != "registry.example.com/network-controller:v1.2.3 2" {
		t.Errorf("Deployment image and replicas = %q, want the values' image and 2", image)
	}
	policy := MustKubectl(t, "get", "validatingadmissionpolicy", fullname+"-secrets", "-o", "jsonpath={.spec.matchConditions[0].expression}")
	if want := "system:serviceaccount:" + release + ":" + fullname; !strings.Contains(policy, want) {
		t.Errorf("the Secrets policy matches %q, want the release's ServiceAccount %s", policy, want)
	}

	Helm(t, "upgrade", release, ChartDir, "--namespace", release, "--reuse-values", "--set", "replicas=1")
	if replicas := MustKubectl(t, "get", "deployment", fullname, "--namespace", release, "-o", "jsonpath={.spec.replicas}"); replicas != "1" {
		t.Errorf("replicas after helm upgrade --set replicas=1 = %q", replicas)
	}

	Helm(t, "uninstall", release, "--namespace", release, "--wait", "--timeout", "2m")
	// The chart's own identities Namespace goes through namespace deletion (the
	// kube-controller-manager); everything else is gone at once.
	Eventually(t, time.Minute, time.Second, "every object of the release gone", func() error {
		for _, args := range [][]string{
			append([]string{"get", "-o", "name", "--ignore-not-found"}, cluster...),
			append([]string{"get", "-o", "name", "--ignore-not-found", "--namespace", release}, namespaced...),
		} {
			if left, err := Kubectl(t, args...); err != nil || strings.TrimSpace(left) != "" {
				return fmt.Errorf("still there: %s (%v)", left, err)
			}
		}
		return nil
	})
}
