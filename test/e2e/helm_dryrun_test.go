//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"
)

// TestHelmChartServerDryRun sends what the chart renders with every option set
// (everyOptionValues, its namespaces made real), and with the ServiceMonitor's own scraper,
// to the apiserver as a server-side dry run with strict field validation: each object must
// pass its schema, defaulting and admission, a Secret policy's CEL included. The local
// apiserver has no Prometheus Operator CRDs, and the test does not install them in a
// cluster other tests share, so the ServiceMonitor and the PrometheusRule are checked
// here instead, field by field against the operator's API (checkServiceMonitor,
// checkPrometheusRule).
func TestHelmChartServerDryRun(t *testing.T) {
	t.Parallel()
	ns, teamA, teamB, identities, monitoring := NewNamespace(t), NewNamespace(t), NewNamespace(t), NewNamespace(t), NewNamespace(t)
	for _, c := range []struct{ name, values, override string }{
		{"every option", everyOptionValues, fmt.Sprintf(`
namespaces: [%[1]s, %[2]s]
credentials: {roleBindings: [%[1]s]}
clusterIdentities: {secretsNamespace: %[3]s}
metrics: {grafanaDashboard: {namespace: %[4]s}}
`, teamA, teamB, identities, monitoring)},
		{"scraper", "", fmt.Sprintf(`
clusterIdentities: {secretsNamespace: %s, createSecretsNamespace: false}
metrics: {certSecret: metrics-tls, serviceMonitor: {enabled: true, insecureSkipVerify: false}, prometheusRule: {enabled: true}}
`, identities)},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The CRDs are the suite's (kubectl apply in setUp), and the same: TestHelmChartMatchesKustomize.
			objects := ParseObjects(t, "helm template", Helm(t, "template", "dry-"+RandomSuffix(5), ChartDir, "--namespace", ns,
				"-f", WriteFile(t, "values.yaml", c.values), "-f", WriteFile(t, "namespaces.yaml", c.override), "--set", "crds.enabled=false"))
			var stream bytes.Buffer
			operator := 0
			for _, key := range slices.Sorted(maps.Keys(objects)) {
				obj := objects[key]
				switch obj.GetKind() {
				case "ServiceMonitor":
					checkServiceMonitor(t, obj, objects)
					operator++
				case "PrometheusRule":
					checkPrometheusRule(t, obj)
					operator++
				default:
					b, err := yaml.Marshal(obj.Object)
					if err != nil {
						t.Fatal(err)
					}
					stream.WriteString("---\n")
					stream.Write(b)
				}
			}
			if operator != 2 {
				t.Errorf("checked %d Prometheus Operator objects, want the ServiceMonitor and the PrometheusRule", operator)
			}
			out := MustKubectl(t, "apply", "--server-side", "--dry-run=server", "--validate=strict", "--field-manager=helm-chart-dry-run",
				"-o", "name", "-f", WriteFile(t, "rendered.yaml", stream.String()))
			if got, want := strings.Count(out, "\n"), len(objects)-operator; got != want {
				t.Errorf("the apiserver took %d objects in a dry run, want %d:\n%s", got, want, out)
			}
		})
	}
}

// serviceMonitor is what the chart may write of a Prometheus Operator ServiceMonitor
// (monitoring.coreos.com/v1), named as the operator's API names each field; decoding it
// strictly refuses any other field (a misspelt one, or the deprecated bearerTokenFile).
type serviceMonitor struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Spec            struct {
		Selector  metav1.LabelSelector `json:"selector"`
		Endpoints []struct {
			Port          string `json:"port"`
			Path          string `json:"path"`
			Interval      string `json:"interval"`
			Scheme        string `json:"scheme"`
			Authorization *struct {
				Type        string                    `json:"type,omitempty"`
				Credentials *corev1.SecretKeySelector `json:"credentials"`
			} `json:"authorization,omitempty"`
			TLSConfig *struct {
				InsecureSkipVerify bool   `json:"insecureSkipVerify"`
				ServerName         string `json:"serverName,omitempty"`
				CA                 *struct {
					Secret    *corev1.SecretKeySelector    `json:"secret,omitempty"`
					ConfigMap *corev1.ConfigMapKeySelector `json:"configMap,omitempty"`
				} `json:"ca,omitempty"`
			} `json:"tlsConfig,omitempty"`
		} `json:"endpoints"`
	} `json:"spec"`
}

// prometheusRule is what the chart may write of a PrometheusRule, as serviceMonitor.
type prometheusRule struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Spec            struct {
		Groups []struct {
			Name     string `json:"name"`
			Interval string `json:"interval,omitempty"`
			Rules    []struct {
				Alert         string            `json:"alert,omitempty"`
				Record        string            `json:"record,omitempty"`
				Expr          string            `json:"expr"`
				For           string            `json:"for,omitempty"`
				KeepFiringFor string            `json:"keep_firing_for,omitempty"`
				Labels        map[string]string `json:"labels,omitempty"`
				Annotations   map[string]string `json:"annotations,omitempty"`
			} `json:"rules"`
		} `json:"groups"`
	} `json:"spec"`
}

// operatorDuration is the pattern of the operator's durations (its CRDs' Duration).
var operatorDuration = regexp.MustCompile(`^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$`)

// decodeStrictly decodes obj into out, refusing fields out does not have.
func decodeStrictly(t *testing.T, obj *unstructured.Unstructured, out any) {
	t.Helper()
	raw, err := json.Marshal(obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("%s is not a %s of the Prometheus Operator's API: %v", ObjectKey(obj), obj.GetKind(), err)
	}
}

// checkServiceMonitor checks the ServiceMonitor's fields, and that it scrapes a port of
// the release's metrics Service with a bearer token from a Secret and, unless told to skip
// it, a check of the certificate against a CA and a name.
func checkServiceMonitor(t *testing.T, obj *unstructured.Unstructured, objects map[string]*unstructured.Unstructured) {
	t.Helper()
	var sm serviceMonitor
	decodeStrictly(t, obj, &sm)
	if sm.APIVersion != "monitoring.coreos.com/v1" {
		t.Errorf("ServiceMonitor apiVersion %s", sm.APIVersion)
	}
	selector, err := metav1.LabelSelectorAsSelector(&sm.Spec.Selector)
	if err != nil {
		t.Fatal(err)
	}
	var service *unstructured.Unstructured
	for _, o := range objects {
		if o.GetKind() == "Service" && selector.Matches(labels.Set(o.GetLabels())) {
			service = o
		}
	}
	if service == nil || len(sm.Spec.Endpoints) == 0 {
		t.Fatalf("the ServiceMonitor selects no Service of the release (%s) or has no endpoint", selector)
	}
	ports := RenderedField(t, service, "spec", "ports")
	for i, e := range sm.Spec.Endpoints {
		if !strings.Contains(ports, "name: "+e.Port+"\n") || e.Path != "/metrics" || !operatorDuration.MatchString(e.Interval) ||
			(e.Scheme != "http" && e.Scheme != "https") {
			t.Errorf("endpoint %d: port %q (the Service's: %s), path %q, interval %q, scheme %q", i, e.Port, ports, e.Path, e.Interval, e.Scheme)
		}
		if e.Scheme != "https" {
			continue
		}
		if a := e.Authorization; a == nil || a.Credentials == nil || a.Credentials.Name == "" || a.Credentials.Key == "" ||
			!(a.Type == "" || strings.EqualFold(a.Type, "Bearer")) {
			t.Errorf("endpoint %d: authorization %+v, want a bearer token from a Secret's key", i, a)
		} else if secret, ok := objects["Secret/"+sm.Metadata.Namespace+"/"+a.Credentials.Name]; ok &&
			RenderedField(t, secret, "type") != string(corev1.SecretTypeServiceAccountToken) {
			t.Errorf("endpoint %d: the chart's Secret %s is no ServiceAccount token", i, a.Credentials.Name)
		}
		switch tls := e.TLSConfig; {
		case tls == nil:
			t.Errorf("endpoint %d: https without tlsConfig", i)
		case tls.InsecureSkipVerify:
		case tls.CA == nil || (tls.CA.Secret == nil) == (tls.CA.ConfigMap == nil) || tls.ServerName == "":
			t.Errorf("endpoint %d: the certificate is checked against CA %+v and name %q, want one Secret's or ConfigMap's key and a name", i, tls.CA, tls.ServerName)
		case tls.CA.Secret != nil && (tls.CA.Secret.Name == "" || tls.CA.Secret.Key == ""),
			tls.CA.ConfigMap != nil && (tls.CA.ConfigMap.Name == "" || tls.CA.ConfigMap.Key == ""):
			t.Errorf("endpoint %d: CA %+v without a name or key", i, tls.CA)
		}
	}
}

// checkPrometheusRule checks the PrometheusRule's fields: each rule an alert or a record
// with an expression, its durations the operator's.
func checkPrometheusRule(t *testing.T, obj *unstructured.Unstructured) {
	t.Helper()
	var rule prometheusRule
	decodeStrictly(t, obj, &rule)
	if rule.APIVersion != "monitoring.coreos.com/v1" || len(rule.Spec.Groups) == 0 {
		t.Errorf("PrometheusRule apiVersion %s, %d groups", rule.APIVersion, len(rule.Spec.Groups))
	}
	for _, g := range rule.Spec.Groups {
		for _, r := range g.Rules {
			if g.Name == "" || (r.Alert == "") == (r.Record == "") || strings.TrimSpace(r.Expr) == "" ||
				!operatorDuration.MatchString(r.For) || !operatorDuration.MatchString(g.Interval) {
				t.Errorf("group %q: rule alert %q record %q, for %q, expr %q", g.Name, r.Alert, r.Record, r.For, r.Expr)
			}
		}
	}
}
