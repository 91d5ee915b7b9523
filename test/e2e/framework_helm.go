//go:build e2e

package e2e

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// ChartDir is the Helm chart, relative to RepoRoot.
const ChartDir = "charts/network-controller"

// Helm runs helm through hack/helm.sh (which builds it first when hack/tools/helm changed)
// with the admin Kubeconfig, and returns stdout; it fails the test on error.
func Helm(t testing.TB, args ...string) string {
	t.Helper()
	stdout, stderr, err := runCommand(5*time.Minute, "hack/helm.sh", append([]string{"--kubeconfig", Kubeconfig}, args...)...)
	t.Logf("helm %s: err=%v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err,
		LastLines(strings.TrimSpace(stdout), 20), strings.TrimSpace(stderr))
	if err != nil {
		t.Fatalf("helm %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout
}

// HelmRefused runs helm like Helm, expects it to fail, and returns what it printed.
func HelmRefused(t testing.TB, args ...string) string {
	t.Helper()
	stdout, stderr, err := runCommand(5*time.Minute, "hack/helm.sh", append([]string{"--kubeconfig", Kubeconfig}, args...)...)
	if err == nil {
		t.Fatalf("helm %s succeeded, want a refusal:\n%s", strings.Join(args, " "), stdout)
	}
	return stdout + stderr
}

// ObjectKey names an object as kind/namespace/name.
func ObjectKey(obj *unstructured.Unstructured) string {
	return obj.GetKind() + "/" + obj.GetNamespace() + "/" + obj.GetName()
}

// ParseObjects parses a stream of YAML documents (helm template, kubectl kustomize) into
// objects by ObjectKey; empty documents are skipped, a key seen twice fails the test.
func ParseObjects(t testing.TB, what, manifests string) map[string]*unstructured.Unstructured {
	t.Helper()
	objects := map[string]*unstructured.Unstructured{}
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewBufferString(manifests), 4096)
	for {
		obj := &unstructured.Unstructured{}
		err := decoder.Decode(&obj.Object)
		if errors.Is(err, io.EOF) {
			return objects
		}
		if err != nil {
			t.Fatalf("parsing %s: %v", what, err)
		}
		if len(obj.Object) == 0 {
			continue
		}
		key := ObjectKey(obj)
		if _, dup := objects[key]; dup {
			t.Fatalf("%s renders %s twice", what, key)
		}
		objects[key] = obj
	}
}

// RenderedObject returns the object of objects (ParseObjects) with key, and fails the test
// naming what was rendered when there is none.
func RenderedObject(t testing.TB, objects map[string]*unstructured.Unstructured, key string) *unstructured.Unstructured {
	t.Helper()
	obj, ok := objects[key]
	if !ok {
		t.Fatalf("the chart renders no %s; it renders %q", key, slices.Sorted(maps.Keys(objects)))
	}
	return obj
}

// RenderedField returns the field of obj at path: a string as it is, anything else as
// YAML (keys sorted); it fails the test when there is none.
func RenderedField(t testing.TB, obj *unstructured.Unstructured, path ...string) string {
	t.Helper()
	v, found, err := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if !found || err != nil {
		t.Fatalf("%s has no %s (%v)", ObjectKey(obj), strings.Join(path, "."), err)
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(b))
}
