//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// everyOptionValues turns on every optional part of the chart and sets every value an
// operator changes, for helm lint and TestHelmChartValues.
const everyOptionValues = `
fullnameOverride: nc
image: {repository: registry.example.com/network-controller, tag: v1.2.3}
replicas: 3
resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {memory: 512Mi}}
cloud: {secretName: my-clouds, name: prod}
namespaces: [team-a, team-b]
clusterID: 4f9c0d3e-cluster
credentials: {clusterRole: true, roleBindings: [team-a]}
clusterIdentities:
  secretsNamespace: identities
  createSecretsNamespace: false
  items:
    team-a-own-cloud:
      namespaceSelector: {matchLabels: {team: a}}
      allow: {retain: true}
metrics:
  port: 9443
  certSecret: metrics-tls
  readers: [{namespace: monitoring, name: prometheus-k8s}]
  serviceMonitor: {enabled: true, labels: {release: kube-prometheus}, insecureSkipVerify: false}
  prometheusRule: {enabled: true}
grantEnforcement: enforce
tenantPasswords: refuse
extraArgs: [-workers=8]
extraEnv: [{name: GODEBUG, value: http2client=0}]
nodeSelector: {kubernetes.io/os: linux}
`

// TestHelmChartLint runs helm lint --strict on the chart with its defaults and with
// every option set.
func TestHelmChartLint(t *testing.T) {
	t.Parallel()
	Helm(t, "lint", "--strict", ChartDir)
	Helm(t, "lint", "--strict", ChartDir, "-f", WriteFile(t, "values.yaml", everyOptionValues))
}

// TestHelmChartRefusesBadValues checks that values.schema.json turns a misspelt or
// malformed value into an error that names it, instead of a chart that silently ignores it,
// and that the identities' Secrets namespace, whose every Secret the controller reads, is
// none of the cluster's own nor the release's (the values' or the default's).
func TestHelmChartRefusesBadValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ set, namespace, want string }{
		{set: "replica=3", want: "additional properties 'replica' not allowed"},
		{set: "extraArgs={workers=8}", want: "'workers=8' does not match pattern '^-'"},
		{set: "namespaces={Team_A}", want: "'Team_A' does not match pattern"},
		{set: "metrics.readers[0].name=prom", want: "missing property 'namespace'"},
		{set: "image.pullPolicy=Sometimes", want: "/image/pullPolicy"},
		{set: "metrics.serviceMonitor.enable=1", want: "additional properties 'enable' not allowed"},
		{set: "grantEnforcement=strict", want: "/grantEnforcement"},
		{set: "tenantPasswords=never", want: "/tenantPasswords"},
		{set: "clusterIdentities.secretsNamespace=kube-system", want: "/clusterIdentities/secretsNamespace"},
		{set: "clusterIdentities.secretsNamespace=default", want: "/clusterIdentities/secretsNamespace"},
		{set: "clusterIdentities.secretsNamespace=kube-public", want: "/clusterIdentities/secretsNamespace"},
		{set: "clusterIdentities.secretsNamespace=kube-node-lease", want: "/clusterIdentities/secretsNamespace"},
		{set: "clusterIdentities.secretsNamespace=team-ops", namespace: "team-ops",
			want: `clusterIdentities.secretsNamespace: "team-ops" is the release's own namespace`},
		// The default, <fullname>-identities, is the release's namespace.
		{namespace: "network-controller-identities",
			want: `clusterIdentities.secretsNamespace: "network-controller-identities" is the release's own namespace`},
	} {
		args := []string{"template", "network-controller", ChartDir}
		if tc.set != "" {
			args = append(args, "--set", tc.set)
		}
		if tc.namespace != "" {
			args = append(args, "--namespace", tc.namespace)
		}
		if out := HelmRefused(t, args...); !strings.Contains(out, tc.want) {
			t.Errorf("helm %s: want an error naming %q, got:\n%s", strings.Join(args, " "), tc.want, out)
		}
	}
}

// TestHelmChartMatchesKustomize compares, object by object, what the chart renders with
// its defaults (a release named network-controller in that namespace) with what
// `kubectl kustomize` renders of deploy/, and of deploy/namespaced/ with the values that
// say the same. The one object the chart leaves out is the release's own Namespace, which
// Helm needs before it installs (helm install --create-namespace, docs/operations.md).
func TestHelmChartMatchesKustomize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, kustomization string
		set                 []string
	}{
		{name: "all namespaces", kustomization: "deploy/"},
		{name: "namespaced", kustomization: "deploy/namespaced/",
			set: []string{"namespaces={team-a}", "credentials.roleBindings={team-a}"}},
		{name: "sharded", kustomization: shardedKustomization(t), set: []string{"replicas=3", "shards=4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"template", "network-controller", ChartDir, "--namespace", "network-controller"}
			for _, s := range tc.set {
				args = append(args, "--set", s)
			}
			chart := ParseObjects(t, "helm template", Helm(t, args...))
			kustomized := ParseObjects(t, "kubectl kustomize "+tc.kustomization, MustKubectl(t, "kustomize", tc.kustomization))
			compareRendered(t, chart, kustomized, []string{"Namespace//network-controller"})
		})
	}
	t.Run("PrometheusRule", func(t *testing.T) {
		chart := ParseObjects(t, "helm template", Helm(t, "template", "network-controller", ChartDir, "--namespace", "network-controller",
			"--set", "metrics.prometheusRule.enabled=true", "--show-only", "templates/prometheusrule.yaml"))
		raw, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "monitoring", "prometheusrule.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		compareRendered(t, chart, ParseObjects(t, "deploy/monitoring/prometheusrule.yaml", string(raw)), nil)
	})
}

// shardedKustomization writes the kustomization deploy/components/sharded tells users to
// write beside deploy/, and returns its folder.
func shardedKustomization(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	deploy, err := filepath.Rel(dir, filepath.Join(RepoRoot, "deploy"))
	if err != nil {
		t.Fatal(err)
	}
	content := fmt.Sprintf("resources:\n  - %s\ncomponents:\n  - %s/components/sharded\n", deploy, deploy)
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// compareRendered fails for every object that differs between the chart's and
// kustomize's output, or that only one of them renders (but for kustomizeOnly).
func compareRendered(t *testing.T, chart, kustomized map[string]*unstructured.Unstructured, kustomizeOnly []string) {
	t.Helper()
	var keys []string
	for key := range chart {
		keys = append(keys, key)
	}
	for key := range kustomized {
		if _, ok := chart[key]; !ok {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	for _, key := range keys {
		got, inChart := chart[key]
		want, inKustomize := kustomized[key]
		switch {
		case !inChart && slices.Contains(kustomizeOnly, key):
		case !inChart:
			t.Errorf("%s: rendered by kustomize, not by the chart", key)
		case !inKustomize:
			t.Errorf("%s: rendered by the chart, not by kustomize", key)
		case !reflect.DeepEqual(got.Object, want.Object):
			gotYAML, _ := yaml.Marshal(got.Object)
			wantYAML, _ := yaml.Marshal(want.Object)
			t.Errorf("%s differs.\nchart:\n%s\nkustomize:\n%s", key, gotYAML, wantYAML)
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("%d objects alike", len(chart))
}

// TestHelmChartValues renders the chart with every option set and checks that each value
// reaches the object it is for.
func TestHelmChartValues(t *testing.T) {
	t.Parallel()
	objects := ParseObjects(t, "helm template", Helm(t, "template", "rel", ChartDir, "--namespace", "ops",
		"-f", WriteFile(t, "values.yaml", everyOptionValues)))
	get := func(key string) *unstructured.Unstructured {
		t.Helper()
		obj, ok := objects[key]
		if !ok {
			var keys []string
			for k := range objects {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			t.Fatalf("the chart renders no %s; it renders %q", key, keys)
		}
		return obj
	}
	field := func(obj *unstructured.Unstructured, path ...string) string {
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

	deployment := get("Deployment/ops/nc")
	containers, _, _ := unstructured.NestedSlice(deployment.Object, "spec", "template", "spec", "containers")
	container := &unstructured.Unstructured{Object: containers[0].(map[string]any)}
	for _, c := range []struct{ got, want string }{
		{field(deployment, "spec", "replicas"), "3"},
		{field(deployment, "spec", "template", "spec", "serviceAccountName"), "nc"},
		{field(deployment, "spec", "template", "spec", "nodeSelector", "kubernetes.io/os"), "linux"},
		{field(container, "image"), "registry.example.com/network-controller:v1.2.3"},
		{field(container, "resources", "limits", "memory"), "512Mi"},
		{field(container, "args"), strings.Join([]string{"- -os-cloud=$(OS_CLOUD)", "- -leader-elect=true",
			"- -leader-elect-namespace=$(POD_NAMESPACE)", "- -metrics-bind-address=:9443", "- -metrics-secure=true",
			"- -health-probe-bind-address=:8081", "- -logging-format=json", "- -namespace=team-a", "- -namespace=team-b",
			"- -cluster-id=4f9c0d3e-cluster", "- -metrics-cert-dir=/etc/metrics-tls", "- -grant-enforcement=enforce", "- -tenant-passwords=refuse", "- -workers=8"}, "\n")},
		{field(container, "ports"), "- containerPort: 9443\n  name: metrics\n  protocol: TCP\n- containerPort: 8081\n  name: health\n  protocol: TCP"},
		{field(deployment, "spec", "template", "spec", "volumes"), "- name: clouds\n  secret:\n    defaultMode: 288\n    secretName: my-clouds\n" +
			"- name: metrics-tls\n  secret:\n    defaultMode: 288\n    secretName: metrics-tls"},
		{field(get("Service/ops/nc-metrics"), "spec", "ports"), "- name: metrics\n  port: 9443\n  protocol: TCP\n  targetPort: metrics"},
		{field(get("ClusterRoleBinding//nc-metrics-reader"), "subjects"), "- kind: ServiceAccount\n  name: prometheus-k8s\n  namespace: monitoring"},
		{field(get("RoleBinding/team-a/nc-credentials"), "roleRef", "name"), "nc-credentials"},
		{field(get("RoleBinding/team-b/nc"), "roleRef", "name"), "nc"},
		{fmt.Sprint(strings.Contains(field(get("Role/team-b/nc"), "rules"), "- networks/status")), "true"},
		{field(get("Role/identities/nc-identity-secrets"), "rules"), "- apiGroups:\n  - \"\"\n  resources:\n  - secrets\n  verbs:\n  - get\n  - list\n  - watch"},
		{field(get("ClusterIdentity//team-a-own-cloud"), "spec"), "allow:\n  retain: true\nnamespaceSelector:\n  matchLabels:\n    team: a"},
		{field(get("ServiceMonitor/ops/nc"), "metadata", "labels", "release"), "kube-prometheus"},
		{field(get("ServiceMonitor/ops/nc"), "spec", "endpoints"), "- bearerTokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token\n" +
			"  interval: 30s\n  path: /metrics\n  port: metrics\n  scheme: https\n  tlsConfig:\n    insecureSkipVerify: false"},
		{field(get("ValidatingAdmissionPolicy//nc-secrets"), "spec", "matchConditions"),
			"- expression: request.userInfo.username == 'system:serviceaccount:ops:nc'\n  name: is-network-controller"},
		{fmt.Sprint(len(field(get("PrometheusRule/ops/nc"), "spec", "groups")) > 0), "true"},
	} {
		if c.got != c.want {
			t.Errorf("got\n%s\nwant\n%s", c.got, c.want)
		}
	}
	// With only Roles and no clusterID, the ID comes from the ConfigMap, as in deploy/namespaced/.
	for _, key := range []string{"ClusterRole//nc", "ClusterRoleBinding//nc", "Namespace//identities"} {
		if _, ok := objects[key]; ok {
			t.Errorf("the chart renders %s, which these values leave out", key)
		}
	}

	off := ParseObjects(t, "helm template", Helm(t, "template", "network-controller", ChartDir, "--namespace", "network-controller",
		"--set", "networkPolicy.enabled=false,podDisruptionBudget.enabled=false,secretsPolicy.enabled=false,credentials.clusterRole=false"))
	for _, key := range []string{"NetworkPolicy/network-controller/network-controller", "PodDisruptionBudget/network-controller/network-controller",
		"ValidatingAdmissionPolicy//network-controller-secrets", "ValidatingAdmissionPolicyBinding//network-controller-secrets",
		"ClusterRole//network-controller-credentials"} {
		if _, ok := off[key]; ok {
			t.Errorf("the chart renders %s although it is turned off", key)
		}
	}
}
