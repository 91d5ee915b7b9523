//go:build e2e

package e2e

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHelmChartInstall installs the chart on the local cluster as a release of its own
// (names prefixed with the release, so it meets no other test's objects), upgrades it and
// uninstalls it. Without a node its Pods stay Pending; what this proves is that the
// apiserver takes every object (the CRDs already there, the ValidatingAdmissionPolicy's CEL,
// the ClusterIdentity against its schema), that NOTES.txt names the image, that the
// ServiceMonitor's scraper identity gets a token allowed to get /metrics, and that helm
// uninstall leaves nothing behind.
func TestHelmChartInstall(t *testing.T) {
	t.Parallel()
	release := "helm-e2e-" + RandomSuffix(5)
	fullname := release + "-network-controller"
	// The suite's CRDs are kubectl's (setUp): one owner in a cluster.
	values := fmt.Sprintf(`
crds: {enabled: false}
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
		Kubectl(t, "delete", "clusterrolebinding", fullname+"-metrics-scraper", "--ignore-not-found")
	})
	valuesFile := WriteFile(t, "values.yaml", values)
	notes := Helm(t, "install", release, ChartDir, "--namespace", release, "--create-namespace", "-f", valuesFile)
	if want := ", image registry.example.com/network-controller:v1.2.3.\n"; !strings.Contains(notes, want) {
		t.Errorf("helm install's NOTES do not name the image (%q):\n%s", want, notes)
	}
	checkMetricsScraper(t, release, fullname, valuesFile)

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

// checkMetricsScraper applies the ServiceMonitor's scraper identity as the chart renders
// it beside the release (the ServiceMonitor itself needs the Prometheus Operator's CRD,
// which the local cluster does not have): the cluster fills its token Secret, the
// apiserver takes the token as the scraper, and the scraper may get /metrics. Then it
// removes them.
func checkMetricsScraper(t *testing.T, release, fullname, valuesFile string) {
	t.Helper()
	scraper := fullname + "-metrics-scraper"
	rendered := Helm(t, "template", release, ChartDir, "--namespace", release, "-f", valuesFile,
		"--set", "metrics.serviceMonitor.enabled=true", "--show-only", "templates/metrics-scraper.yaml")
	MustKubectl(t, "apply", "--server-side", "--field-manager=helm-chart-test", "-f", WriteFile(t, "scraper.yaml", rendered))
	var token []byte
	Eventually(t, time.Minute, time.Second, "the scraper's token Secret filled", func() error {
		encoded, err := Kubectl(t, "get", "secret", scraper, "--namespace", release, "-o", "jsonpath={.data.token}")
		if err != nil || encoded == "" {
			return fmt.Errorf("no token yet: %s (%v)", encoded, err)
		}
		token, err = base64.StdEncoding.DecodeString(encoded)
		return err
	})
	review := fmt.Sprintf(`{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "spec": {"token": %q}}`, token)
	if user := MustKubectl(t, "create", "-o", "jsonpath={.status.user.username}", "-f", WriteFile(t, "review.json", review)); user != "system:serviceaccount:"+release+":"+scraper {
		t.Errorf("the scraper's token authenticates as %q, want its ServiceAccount", user)
	}
	if can, _ := Kubectl(t, "auth", "can-i", "get", "/metrics", "--as", "system:serviceaccount:"+release+":"+scraper); strings.TrimSpace(can) != "yes" {
		t.Errorf("kubectl auth can-i get /metrics as the scraper: %q, want yes", can)
	}
	// The token Secret goes with its ServiceAccount.
	MustKubectl(t, "delete", "--wait=false", "--ignore-not-found", "-f", WriteFile(t, "scraper.yaml", rendered))
}
