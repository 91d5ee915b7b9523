//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ChartBeforeInstanceSelector is the last commit whose chart selected the controller's
// Pods without app.kubernetes.io/instance.
const ChartBeforeInstanceSelector = "71de4be"

// TestHelmChartUpgradeSelector installs the chart of ChartBeforeInstanceSelector and
// upgrades it to this one: the upgrade is refused, before any object changes, with what
// to do (a Deployment's selector cannot change), instead of the apiserver's "field is
// immutable"; once the Deployment is deleted as the message says, the upgrade goes through
// and the Deployment selects by the release's instance.
func TestHelmChartUpgradeSelector(t *testing.T) {
	t.Parallel()
	old := t.TempDir()
	if stdout, stderr, err := runCommand(time.Minute, "sh", "-c",
		"git archive "+ChartBeforeInstanceSelector+" "+ChartDir+" | tar -x -C "+old); err != nil {
		t.Fatalf("the chart of %s: %v (a shallow clone lacks it: git fetch --unshallow)\n%s%s", ChartBeforeInstanceSelector, err, stdout, stderr)
	}
	release := "helm-up-" + RandomSuffix(5)
	fullname := release + "-network-controller"
	t.Cleanup(func() {
		// Idempotent: the release may be gone already.
		_, _, _ = runCommand(2*time.Minute, "hack/helm.sh", "--kubeconfig", Kubeconfig, "uninstall", release, "--namespace", release, "--ignore-not-found")
		Kubectl(t, "delete", "namespace", release, fullname+"-identities", "--ignore-not-found", "--wait=false")
	})
	// The CRDs stay the suite's (kubectl apply in setUp), newer than the old chart's:
	// --skip-crds, as crds.enabled=false below.
	Helm(t, "install", release, filepath.Join(old, ChartDir), "--namespace", release, "--create-namespace", "--skip-crds")
	selector := func() string {
		return MustKubectl(t, "get", "deployment", fullname, "--namespace", release, "-o", "jsonpath={.spec.selector.matchLabels}")
	}
	before := selector()
	if strings.Contains(before, "app.kubernetes.io/instance") {
		t.Fatalf("the chart of %s already selects by instance: %s", ChartBeforeInstanceSelector, before)
	}

	// The CRDs stay the suite's (kubectl apply in setUp): crds.enabled=false.
	out := HelmRefused(t, "upgrade", release, ChartDir, "--namespace", release, "--set", "crds.enabled=false")
	for _, want := range []string{"a Deployment's selector cannot change: delete it, then upgrade again",
		"kubectl -n " + release + " delete deployment " + fullname} {
		if !strings.Contains(out, want) {
			t.Errorf("helm upgrade over the earlier chart's Deployment: want %q, got:\n%s", want, out)
		}
	}
	if after := selector(); after != before {
		t.Errorf("the refused upgrade changed the selector from %s to %s", before, after)
	}

	MustKubectl(t, "delete", "deployment", fullname, "--namespace", release, "--wait")
	Helm(t, "upgrade", release, ChartDir, "--namespace", release, "--set", "crds.enabled=false")
	if got := selector(); !strings.Contains(got, `"app.kubernetes.io/instance":"`+release+`"`) {
		t.Errorf("after the upgrade the Deployment selects by %s, want the release's instance", got)
	}
	Helm(t, "uninstall", release, "--namespace", release, "--wait", "--timeout", "2m")
}
