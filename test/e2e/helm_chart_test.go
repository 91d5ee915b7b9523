//go:build e2e

package e2e

import (
	"fmt"
	"maps"
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
// operator changes, for helm lint, TestHelmChartValues and TestHelmChartServerDryRun.
// The image's digest wins over its tag; the nulls remove the user and groups from the
// Pods' security context, as on OpenShift.
const everyOptionValues = `
fullnameOverride: nc
image: {repository: registry.example.com/network-controller, tag: v1.2.3, digest: "sha256:` + testDigest + `"}
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
  serviceMonitor:
    enabled: true
    labels: {release: kube-prometheus}
    authorization: {type: Bearer, credentials: {name: prometheus-token, key: token}}
    insecureSkipVerify: false
    ca: {configMap: {name: metrics-ca, key: ca.crt}}
    serverName: metrics.example.com
  prometheusRule: {enabled: true}
  grafanaDashboard: {enabled: true, labels: {grafana_dashboard: "1", team: network}, annotations: {grafana_folder: Network}, namespace: monitoring}
podDisruptionBudget: {minAvailable: "50%"}
grantEnforcement: enforce
tenantPasswords: refuse
serviceAccount: {annotations: {example.com/role: network-controller}}
extraArgs: [-workers=8]
extraEnv: [{name: GODEBUG, value: http2client=0}]
extraEnvFrom: [{configMapRef: {name: proxy-settings}}]
extraVolumes: [{name: openstack-ca, configMap: {name: openstack-ca}}]
extraVolumeMounts: [{name: openstack-ca, mountPath: /etc/openstack-ca, readOnly: true}]
podSecurityContext: {runAsUser: null, runAsGroup: null, fsGroup: null}
securityContext: {privileged: false}
podLabels: {team: network}
podAnnotations: {example.com/owner: network-team}
priorityClassName: network-controller-critical
topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}
  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {team: network}}}
affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms: [{matchExpressions: [{key: node-role.kubernetes.io/control-plane, operator: DoesNotExist}]}]
nodeSelector: {kubernetes.io/os: linux}
tolerations: [{key: dedicated, operator: Equal, value: network, effect: NoSchedule}]
`

// testDigest is the image digest of everyOptionValues.
const testDigest = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

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
		{set: "image.digest=v1.2.3", want: "/image/digest"},
		{set: `podLabels.app\.kubernetes\.io/instance=other`, want: "/podLabels/app.kubernetes.io~1instance"},
		{set: "affinity.nodeAfinity.x=1", want: "additional properties 'nodeAfinity' not allowed"},
		{set: "topologySpreadConstraints[0].topologyKey=topology.kubernetes.io/zone", want: "/topologySpreadConstraints/0"},
		{set: "podDisruptionBudget.maxUnavailable=0", want: "/podDisruptionBudget/maxUnavailable"},
		{set: "podDisruptionBudget.minAvailable=2", want: "podDisruptionBudget.minAvailable 2 of 2 replicas keeps 2 available, which would block every drain"},
		{set: "podDisruptionBudget.minAvailable=51%", want: "podDisruptionBudget.minAvailable 51% of 2 replicas keeps 2 available"},
		{set: "metrics.serviceMonitor.authorization.type=Bearer", want: "missing property 'credentials'"},
		{set: "metrics.serviceMonitor.enabled=true,metrics.serviceMonitor.insecureSkipVerify=false",
			want: "metrics.serviceMonitor.insecureSkipVerify false needs the CA of the metrics certificate"},
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
// say the same, with the CRDs of crd/. The one object the chart leaves out is the release's own Namespace, which
// Helm needs before it installs (helm install --create-namespace, docs/operations.md);
// the labels that tell one release from another are left out of the comparison
// (withoutReleaseLabels). The PrometheusRule and the Grafana dashboard's ConfigMap hold
// what deploy/monitoring/ holds.
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
			// The chart renders the CRDs too (crds.enabled), as crd/ holds them, with the
			// chart's labels, app.kubernetes.io/name too, which crd/'s have none of.
			maps.Copy(kustomized, crdObjects(t))
			for _, obj := range chart {
				if obj.GetKind() == "CustomResourceDefinition" {
					labels := obj.GetLabels()
					delete(labels, "app.kubernetes.io/name")
					obj.SetLabels(labels)
				}
			}
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
	t.Run("GrafanaDashboard", func(t *testing.T) {
		chart := ParseObjects(t, "helm template", Helm(t, "template", "network-controller", ChartDir, "--namespace", "network-controller",
			"--set", "metrics.grafanaDashboard.enabled=true", "--show-only", "templates/grafana-dashboard.yaml"))
		raw, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "monitoring", "dashboard.json"))
		if err != nil {
			t.Fatal(err)
		}
		configMap := chart["ConfigMap/network-controller/network-controller-dashboard"]
		if configMap == nil {
			t.Fatalf("the chart renders no ConfigMap network-controller-dashboard: %v", slices.Sorted(maps.Keys(chart)))
		}
		got, _, _ := unstructured.NestedString(configMap.Object, "data", "network-controller.json")
		if got != string(raw) {
			t.Errorf("the dashboard's ConfigMap differs from deploy/monitoring/dashboard.json (copy it to %s/files/dashboard.json)", ChartDir)
		}
		if l := configMap.GetLabels()["grafana_dashboard"]; l != "1" {
			t.Errorf("the dashboard's ConfigMap has the label grafana_dashboard=%q, want 1 (Grafana's sidecar)", l)
		}
	})
}

// withoutReleaseLabels returns obj without the labels that tell one Helm release from
// another, wherever they occur: on objects, on the Pods and in selectors. deploy/ is one
// install per cluster and has none of them; its Deployment's selector never changes
// between versions (docs/upgrading.md), so the chart's differs from it by the instance
// alone, which must be the release's name, network-controller.
func withoutReleaseLabels(t *testing.T, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	var strip func(v any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			if instance, ok := v["app.kubernetes.io/instance"]; ok && instance != "network-controller" {
				t.Errorf("%s: app.kubernetes.io/instance %v, want the release's name network-controller", ObjectKey(obj), instance)
			}
			// The CRDs' helm.sh/resource-policy annotation too (crds.keep, TestHelmChartCRDs).
			for _, l := range []string{"app.kubernetes.io/instance", "app.kubernetes.io/version", "app.kubernetes.io/managed-by", "helm.sh/chart", "helm.sh/resource-policy"} {
				delete(v, l)
			}
			for k, e := range v {
				v[k] = strip(e)
				// Labels or annotations that held only those are as absent (crd/'s CRDs have no labels).
				if m, ok := v[k].(map[string]any); ok && len(m) == 0 && (k == "labels" || k == "annotations") {
					delete(v, k)
				}
			}
		case []any:
			for i, e := range v {
				v[i] = strip(e)
			}
		}
		return v
	}
	obj = obj.DeepCopy()
	strip(obj.Object)
	return obj
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
		if inChart && inKustomize {
			got, want = withoutReleaseLabels(t, got), withoutReleaseLabels(t, want)
		}
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
// reaches the object it is for, and that every object carries the recommended labels.
func TestHelmChartValues(t *testing.T) {
	t.Parallel()
	objects := ParseObjects(t, "helm template", Helm(t, "template", "rel", ChartDir, "--namespace", "ops",
		"-f", WriteFile(t, "values.yaml", everyOptionValues)))
	get := func(key string) *unstructured.Unstructured { t.Helper(); return RenderedObject(t, objects, key) }
	field := func(obj *unstructured.Unstructured, path ...string) string {
		t.Helper()
		return RenderedField(t, obj, path...)
	}

	deployment := get("Deployment/ops/nc")
	pod := &unstructured.Unstructured{Object: deployment.Object["spec"].(map[string]any)["template"].(map[string]any)}
	containers, _, _ := unstructured.NestedSlice(pod.Object, "spec", "containers")
	container := &unstructured.Unstructured{Object: containers[0].(map[string]any)}
	selector := "app.kubernetes.io/component: controller\napp.kubernetes.io/instance: rel\napp.kubernetes.io/name: network-controller"
	for _, c := range []struct{ got, want string }{
		{field(deployment, "spec", "replicas"), "3"},
		{field(deployment, "spec", "selector"), "matchLabels:\n  " + strings.ReplaceAll(selector, "\n", "\n  ")},
		{field(pod, "metadata", "labels"), "app.kubernetes.io/component: controller\napp.kubernetes.io/instance: rel\n" +
			"app.kubernetes.io/managed-by: Helm\napp.kubernetes.io/name: network-controller\napp.kubernetes.io/version: v1.2.3\n" +
			"helm.sh/chart: " + field(deployment, "metadata", "labels", "helm.sh/chart") + "\nteam: network"},
		{field(pod, "metadata", "annotations"), "example.com/owner: network-team"},
		{field(pod, "spec", "serviceAccountName"), "nc"},
		{field(pod, "spec", "priorityClassName"), "network-controller-critical"},
		{field(pod, "spec", "nodeSelector", "kubernetes.io/os"), "linux"},
		{field(pod, "spec", "tolerations"), "- effect: NoSchedule\n  key: dedicated\n  operator: Equal\n  value: network"},
		// runAsUser, runAsGroup and fsGroup removed with null.
		{field(pod, "spec", "securityContext"), "runAsNonRoot: true\nseccompProfile:\n  type: RuntimeDefault"},
		// A constraint without labelSelector gets the Pods' selector labels.
		{field(pod, "spec", "topologySpreadConstraints"), "- labelSelector:\n    matchLabels:\n      " + strings.ReplaceAll(selector, "\n", "\n      ") +
			"\n  maxSkew: 1\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: ScheduleAnyway\n" +
			"- labelSelector:\n    matchLabels:\n      team: network\n  maxSkew: 1\n  topologyKey: kubernetes.io/hostname\n  whenUnsatisfiable: DoNotSchedule"},
		// nodeAffinity is added to the soft anti-affinity of the replicas.
		{field(pod, "spec", "affinity", "nodeAffinity"), "requiredDuringSchedulingIgnoredDuringExecution:\n  nodeSelectorTerms:\n" +
			"  - matchExpressions:\n    - key: node-role.kubernetes.io/control-plane\n      operator: DoesNotExist"},
		{field(pod, "spec", "affinity", "podAntiAffinity"), "preferredDuringSchedulingIgnoredDuringExecution:\n- podAffinityTerm:\n" +
			"    labelSelector:\n      matchLabels:\n        " + strings.ReplaceAll(selector, "\n", "\n        ") +
			"\n    topologyKey: kubernetes.io/hostname\n  weight: 100"},
		// The digest wins over the tag, which names only the version label.
		{field(container, "image"), "registry.example.com/network-controller@sha256:" + testDigest},
		{field(container, "resources", "limits", "memory"), "512Mi"},
		{field(container, "args"), strings.Join([]string{"- -os-cloud=$(OS_CLOUD)", "- -leader-elect=true",
			"- -leader-elect-namespace=$(POD_NAMESPACE)", "- -metrics-bind-address=:9443", "- -metrics-secure=true",
			"- -health-probe-bind-address=:8081", "- -logging-format=json", "- -namespace=team-a", "- -namespace=team-b",
			"- -cluster-id=4f9c0d3e-cluster", "- -metrics-cert-dir=/etc/metrics-tls", "- -grant-enforcement=enforce", "- -tenant-passwords=refuse", "- -workers=8"}, "\n")},
		{field(container, "ports"), "- containerPort: 9443\n  name: metrics\n  protocol: TCP\n- containerPort: 8081\n  name: health\n  protocol: TCP"},
		{field(container, "envFrom"), "- configMapRef:\n    name: proxy-settings"},
		{field(container, "securityContext"), "allowPrivilegeEscalation: false\ncapabilities:\n  drop:\n  - ALL\nprivileged: false\nreadOnlyRootFilesystem: true"},
		{field(container, "volumeMounts"), "- mountPath: /etc/openstack\n  name: clouds\n  readOnly: true\n" +
			"- mountPath: /etc/metrics-tls\n  name: metrics-tls\n  readOnly: true\n- mountPath: /etc/openstack-ca\n  name: openstack-ca\n  readOnly: true"},
		{field(pod, "spec", "volumes"), "- name: clouds\n  secret:\n    defaultMode: 288\n    secretName: my-clouds\n" +
			"- name: metrics-tls\n  secret:\n    defaultMode: 288\n    secretName: metrics-tls\n- configMap:\n    name: openstack-ca\n  name: openstack-ca"},
		{field(get("ServiceAccount/ops/nc"), "metadata", "annotations"), "example.com/role: network-controller"},
		{field(get("PodDisruptionBudget/ops/nc"), "spec"), "minAvailable: 50%\nselector:\n  matchLabels:\n    " + strings.ReplaceAll(selector, "\n", "\n    ")},
		{field(get("Service/ops/nc-metrics"), "spec", "selector"), selector},
		{field(get("Service/ops/nc-metrics"), "spec", "ports"), "- name: metrics\n  port: 9443\n  protocol: TCP\n  targetPort: metrics"},
		{field(get("NetworkPolicy/ops/nc"), "spec", "podSelector"), "matchLabels:\n  " + strings.ReplaceAll(selector, "\n", "\n  ")},
		{field(get("ClusterRoleBinding//nc-metrics-reader"), "subjects"), "- kind: ServiceAccount\n  name: prometheus-k8s\n  namespace: monitoring"},
		{field(get("RoleBinding/team-a/nc-credentials"), "roleRef", "name"), "nc-credentials"},
		{field(get("RoleBinding/team-b/nc"), "roleRef", "name"), "nc"},
		{fmt.Sprint(strings.Contains(field(get("Role/team-b/nc"), "rules"), "- networks/status")), "true"},
		{field(get("Role/identities/nc-identity-secrets"), "rules"), "- apiGroups:\n  - \"\"\n  resources:\n  - secrets\n  verbs:\n  - get\n  - list\n  - watch"},
		{field(get("ClusterIdentity//team-a-own-cloud"), "spec"), "allow:\n  retain: true\nnamespaceSelector:\n  matchLabels:\n    team: a"},
		{field(get("ServiceMonitor/ops/nc"), "metadata", "labels", "release"), "kube-prometheus"},
		{field(get("ServiceMonitor/ops/nc"), "spec", "selector"), "matchLabels:\n  " + strings.ReplaceAll(selector, "\n", "\n  ")},
		{field(get("ServiceMonitor/ops/nc"), "spec", "endpoints"), "- authorization:\n    credentials:\n      key: token\n      name: prometheus-token\n    type: Bearer\n" +
			"  interval: 30s\n  path: /metrics\n  port: metrics\n  scheme: https\n  tlsConfig:\n    ca:\n      configMap:\n        key: ca.crt\n        name: metrics-ca\n" +
			"    insecureSkipVerify: false\n    serverName: metrics.example.com"},
		{field(get("ConfigMap/monitoring/nc-dashboard"), "metadata", "annotations"), "grafana_folder: Network"},
		{field(get("ConfigMap/monitoring/nc-dashboard"), "metadata", "labels", "grafana_dashboard"), "1"},
		{field(get("ConfigMap/monitoring/nc-dashboard"), "metadata", "labels", "team"), "network"},
		{fmt.Sprint(strings.Contains(field(get("ConfigMap/monitoring/nc-dashboard"), "data", "network-controller.json"), `"uid": "network-controller"`)), "true"},
		{field(get("ValidatingAdmissionPolicy//nc-secrets"), "spec", "matchConditions"),
			"- expression: request.userInfo.username == 'system:serviceaccount:ops:nc'\n  name: is-network-controller"},
		{fmt.Sprint(len(field(get("PrometheusRule/ops/nc"), "spec", "groups")) > 0), "true"},
	} {
		if c.got != c.want {
			t.Errorf("got\n%s\nwant\n%s", c.got, c.want)
		}
	}
	// Every object carries the recommended labels of the release.
	for key, obj := range objects {
		labels := obj.GetLabels()
		for name, want := range map[string]string{"app.kubernetes.io/name": "network-controller", "app.kubernetes.io/instance": "rel",
			"app.kubernetes.io/version": "v1.2.3", "app.kubernetes.io/managed-by": "Helm"} {
			if labels[name] != want {
				t.Errorf("%s: label %s=%q, want %q", key, name, labels[name], want)
			}
		}
		if !strings.HasPrefix(labels["helm.sh/chart"], "network-controller-") {
			t.Errorf("%s: label helm.sh/chart=%q, want network-controller-<chart version>", key, labels["helm.sh/chart"])
		}
	}
	// authorization names a Secret of its own: no scraper ServiceAccount.
	if _, ok := objects["ServiceAccount/ops/nc-metrics-scraper"]; ok {
		t.Errorf("the chart renders the scraper ServiceAccount although metrics.serviceMonitor.authorization names a Secret")
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
