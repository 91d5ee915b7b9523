//go:build e2e

package e2e

import (
	"maps"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestHelmChartReleasesApart renders two releases in one namespace, one named as the
// chart and one whose name starts so, with every part that selects on: each selector of
// one release (the Deployment's, the PodDisruptionBudget's, the Service's, the
// NetworkPolicy's, the spread and anti-affinity terms, the ServiceMonitor's over Services)
// selects its own Pods (or Service) and none of the other's, and no two objects share a
// name.
func TestHelmChartReleasesApart(t *testing.T) {
	t.Parallel()
	render := func(release string, args ...string) map[string]*unstructured.Unstructured {
		return ParseObjects(t, "helm template "+release, Helm(t, append([]string{"template", release, ChartDir, "--namespace", "shared",
			"-f", WriteFile(t, "values.yaml", releasesApartValues)}, args...)...))
	}
	releases := []string{"network-controller", "network-controller-canary"}
	// One release in a cluster owns the CRDs (values.yaml, crds).
	rendered := []map[string]*unstructured.Unstructured{render(releases[0]), render(releases[1], "--set", "crds.enabled=false")}

	for key := range rendered[0] {
		if _, ok := rendered[1][key]; ok {
			t.Errorf("both releases render %s", key)
		}
	}
	for i, own := range rendered {
		other := rendered[1-i]
		selectors := releaseSelectors(t, own)
		if len(selectors) < 8 {
			t.Fatalf("release %s: %d selectors, want the Deployment's, the PDB's, the Service's, the NetworkPolicy's, "+
				"the spread's, the anti-affinity's and the ServiceMonitor's: %v", releases[i], len(selectors), slices.Sorted(maps.Keys(selectors)))
		}
		for what, s := range selectors {
			target := podLabelsOf
			if s.services {
				target = serviceLabelsOf
			}
			if own, other := target(t, own), target(t, other); !s.selector.Matches(own) || s.selector.Matches(other) {
				t.Errorf("release %s: %s (%s) selects its own release's %v: %t, the other's %v: %t; want true, false",
					releases[i], what, s.selector, own, s.selector.Matches(own), other, s.selector.Matches(other))
			}
		}
	}
}

// releasesApartValues turn on every object that selects Pods or Services, with the
// constraints over zones and nodes the chart's values.yaml suggests, and a label of
// their own on the Pods, the same in both releases.
const releasesApartValues = `
metrics: {serviceMonitor: {enabled: true}}
podLabels: {team: network}
topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}
  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
`

// releaseSelector is a selector of a release, of Pods or (services) of Services.
type releaseSelector struct {
	selector labels.Selector
	services bool
}

// releaseSelectors returns every label selector the release's objects hold, by where.
func releaseSelectors(t *testing.T, objects map[string]*unstructured.Unstructured) map[string]releaseSelector {
	t.Helper()
	out := map[string]releaseSelector{}
	add := func(where string, raw any, services bool) {
		var ls metav1.LabelSelector
		if m, ok := raw.(map[string]any); ok {
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &ls); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		}
		s, err := metav1.LabelSelectorAsSelector(&ls)
		if err != nil || s.Empty() {
			t.Fatalf("%s: selector %v (%v), want one that selects", where, raw, err)
		}
		out[where] = releaseSelector{s, services}
	}
	for key, obj := range objects {
		field := func(path ...string) any {
			v, _, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
			return v
		}
		switch obj.GetKind() {
		case "Deployment":
			add(key+" spec.selector", field("spec", "selector"), false)
			pod := []string{"spec", "template", "spec"}
			spread, _ := field(append(pod, "topologySpreadConstraints")...).([]any)
			for _, c := range spread {
				add(key+" topologySpreadConstraints "+c.(map[string]any)["topologyKey"].(string), c.(map[string]any)["labelSelector"], false)
			}
			terms, _ := field(append(pod, "affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution")...).([]any)
			for _, term := range terms {
				add(key+" podAntiAffinity", term.(map[string]any)["podAffinityTerm"].(map[string]any)["labelSelector"], false)
			}
		case "PodDisruptionBudget":
			add(key+" spec.selector", field("spec", "selector"), false)
		case "NetworkPolicy":
			add(key+" spec.podSelector", field("spec", "podSelector"), false)
		case "Service":
			add(key+" spec.selector", map[string]any{"matchLabels": field("spec", "selector")}, false)
		case "ServiceMonitor":
			add(key+" spec.selector", field("spec", "selector"), true)
		}
	}
	return out
}

// podLabelsOf returns the labels of the Pods of the release's Deployment.
func podLabelsOf(t *testing.T, objects map[string]*unstructured.Unstructured) labels.Set {
	t.Helper()
	for _, obj := range objects {
		if obj.GetKind() == "Deployment" {
			l, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "template", "metadata", "labels")
			return l
		}
	}
	t.Fatal("no Deployment")
	return nil
}

// serviceLabelsOf returns the labels of the release's Service.
func serviceLabelsOf(t *testing.T, objects map[string]*unstructured.Unstructured) labels.Set {
	t.Helper()
	for _, obj := range objects {
		if obj.GetKind() == "Service" {
			return obj.GetLabels()
		}
	}
	t.Fatal("no Service")
	return nil
}
