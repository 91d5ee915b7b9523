//go:build e2e

package e2e

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestHelmChartCRDs checks the chart's CRDs (templates/crds.yaml): rendered by default with
// helm.sh/resource-policy: keep, so that helm upgrade upgrades them and neither helm
// uninstall nor a rollback deletes them; without the annotation with crds.keep=false; not
// at all with crds.enabled=false. That they are crd/'s is TestHelmChartMatchesKustomize's.
func TestHelmChartCRDs(t *testing.T) {
	t.Parallel()
	want := slices.Sorted(maps.Keys(crdObjects(t)))
	for _, tc := range []struct {
		set  string
		keep bool
		none bool
	}{
		{keep: true},
		{set: "crds.keep=false"},
		{set: "crds.enabled=false", none: true},
	} {
		args := []string{"template", "network-controller", ChartDir, "--namespace", "network-controller"}
		if tc.set != "" {
			args = append(args, "--set", tc.set)
		}
		var got []string
		for key, obj := range ParseObjects(t, "helm template", Helm(t, args...)) {
			if obj.GetKind() != "CustomResourceDefinition" {
				continue
			}
			got = append(got, key)
			if policy := obj.GetAnnotations()["helm.sh/resource-policy"]; (policy == "keep") != tc.keep {
				t.Errorf("--set %q: %s has helm.sh/resource-policy %q, want keep: %v", tc.set, key, policy, tc.keep)
			}
		}
		slices.Sort(got)
		if tc.none && len(got) > 0 {
			t.Errorf("--set %q renders the CRDs %v, want none", tc.set, got)
		}
		if !tc.none && !slices.Equal(got, want) {
			t.Errorf("--set %q renders the CRDs %v, want those of crd/: %v", tc.set, got, want)
		}
	}
}

// crdObjects are the CRDs of crd/, by ObjectKey.
func crdObjects(t *testing.T) map[string]*unstructured.Unstructured {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(RepoRoot, "crd", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in crd/ (%v)", err)
	}
	out := map[string]*unstructured.Unstructured{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		maps.Copy(out, ParseObjects(t, f, string(raw)))
	}
	return out
}
