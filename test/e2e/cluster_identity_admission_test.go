//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The ClusterIdentity CRD admits the two forms (the controller's own cloud, and a
// Secret's cloud) and refuses what would leave the identity unclear, each with a message
// naming the field; kubectl shows its printer columns.
func TestClusterIdentityAdmission(t *testing.T) {
	name := func(what string) string { return "e2e-" + what + "-" + RandomSuffix(6) }
	apply := func(t *testing.T, objName, spec string) (string, error) {
		t.Helper()
		file := WriteFile(t, objName+".yaml", fmt.Sprintf("apiVersion: samplecrd.k8s.io/v1\nkind: ClusterIdentity\nmetadata: {name: %s}\nspec: %s\n", objName, spec))
		out, err := Kubectl(t, "apply", "-f", file)
		if err == nil {
			t.Cleanup(func() { _, _ = Kubectl(t, "delete", "clusteridentity", objName, "--ignore-not-found") })
		}
		return out, err
	}

	for _, tc := range []struct{ what, spec string }{
		{"own", `{namespaceSelector: {}, allow: {retain: true, import: true}}`},
		{"delegated", `{namespaceSelector: {matchLabels: {team: a}}, secretRef: {namespace: network-controller-system, name: team-a}, cloudName: prod,
			allow: {sharedWith: ["8d3c2b1a0f9e4d7c6b5a49382716f0e1"], existingRouters: [{name: edge}, {id: "5f8e7a10-3c2b-4d1e-9f60-1a2b3c4d5e6f"}], routersPerNamespace: 2}}`},
	} {
		objName := name(tc.what)
		if out, err := apply(t, objName, tc.spec); err != nil {
			t.Errorf("%s: refused: %v\n%s", tc.what, err, out)
			continue
		}
		out := MustKubectl(t, "get", "clusteridentity", objName)
		if !strings.Contains(out, "NAMESPACES") || !strings.Contains(out, "NETWORKS") || !strings.Contains(out, objName) {
			t.Errorf("%s: kubectl get shows\n%s\nwant the Namespaces and Networks columns", tc.what, out)
		}
	}

	for _, tc := range []struct {
		what, spec string
		want       []string
	}{
		{"secret-without-cloud", `{namespaceSelector: {}, secretRef: {namespace: ops, name: team-a}}`,
			[]string{"spec.cloudName", "cloudName must be set exactly when secretRef is"}},
		{"cloud-without-secret", `{namespaceSelector: {}, cloudName: prod}`,
			[]string{"spec.cloudName", "cloudName must be set exactly when secretRef is"}},
		{"no-selector", `{allow: {retain: true}}`,
			[]string{"spec.namespaceSelector", "Required value"}},
		{"share-with-everyone", `{namespaceSelector: {}, allow: {sharedWith: ["*"]}}`,
			[]string{"spec.allow.sharedWith[0]", `cannot name "*"`}},
		{"router-without-ref", `{namespaceSelector: {}, allow: {existingRouters: [{}]}}`,
			[]string{"spec.allow.existingRouters[0]", "must name exactly one of id or name"}},
		{"secret-in-a-bad-namespace", `{namespaceSelector: {}, secretRef: {namespace: "Ops_1", name: team-a}, cloudName: prod}`,
			[]string{"spec.secretRef.namespace"}},
	} {
		out, err := apply(t, name(tc.what), tc.spec)
		if err == nil {
			t.Errorf("%s: admitted, want refused", tc.what)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: message %q does not say %q", tc.what, out, w)
			}
		}
	}
}
