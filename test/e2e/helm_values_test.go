//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// TestHelmChartValueDefaults checks what the chart makes of a value left at its default,
// or set alone, where everyOptionValues sets it otherwise: the image by tag and by the
// chart's appVersion, and the image NOTES.txt names; the PodDisruptionBudget with one
// replica and with maxUnavailable; the anti-affinity replaced; the ServiceMonitor's own
// scraper identity, its CA from metrics.certSecret and its server name; plain HTTP.
func TestHelmChartValueDefaults(t *testing.T) {
	t.Parallel()
	render := func(t *testing.T, set ...string) map[string]*unstructured.Unstructured {
		t.Helper()
		args := []string{"template", "rel", ChartDir, "--namespace", "ops"}
		for _, s := range set {
			args = append(args, "--set", s)
		}
		return ParseObjects(t, "helm template", Helm(t, args...))
	}
	image := func(t *testing.T, objects map[string]*unstructured.Unstructured) (image, version string) {
		t.Helper()
		deployment := RenderedObject(t, objects, "Deployment/ops/rel-network-controller")
		containers, _, _ := unstructured.NestedSlice(deployment.Object, "spec", "template", "spec", "containers")
		return containers[0].(map[string]any)["image"].(string), deployment.GetLabels()["app.kubernetes.io/version"]
	}

	t.Run("image", func(t *testing.T) {
		raw, err := os.ReadFile(filepath.Join(RepoRoot, ChartDir, "Chart.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var chart struct {
			AppVersion string `json:"appVersion"`
		}
		if err := yaml.Unmarshal(raw, &chart); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			set                  []string
			wantImage, wantLabel string
		}{
			{nil, "network-controller:" + chart.AppVersion, chart.AppVersion},
			{[]string{"image.repository=registry.example.com/nc", "image.tag=v9.8.7"}, "registry.example.com/nc:v9.8.7", "v9.8.7"},
			{[]string{"image.digest=sha256:" + testDigest}, "network-controller@sha256:" + testDigest, chart.AppVersion},
			// Characters a tag may have and a label may not are replaced.
			{[]string{"image.tag=v1.0.0+build.5"}, "network-controller:v1.0.0+build.5", "v1.0.0_build.5"},
		} {
			gotImage, gotLabel := image(t, render(t, c.set...))
			if gotImage != c.wantImage || gotLabel != c.wantLabel {
				t.Errorf("%v: image %q, version label %q; want %q, %q", c.set, gotImage, gotLabel, c.wantImage, c.wantLabel)
			}
			args := []string{"install", "rel", ChartDir, "--namespace", "ops", "--dry-run=client"}
			for _, s := range c.set {
				args = append(args, "--set", s)
			}
			if notes := Helm(t, args...); !strings.Contains(notes, ", image "+c.wantImage+".\n") {
				t.Errorf("%v: NOTES.txt does not name the image %s:\n%s", c.set, c.wantImage, notes)
			}
		}
	})

	t.Run("PodDisruptionBudget", func(t *testing.T) {
		const key = "PodDisruptionBudget/ops/rel-network-controller"
		// One replica: no budget, which would keep the node from draining.
		if _, ok := render(t, "replicas=1")[key]; ok {
			t.Errorf("replicas=1 renders %s", key)
		}
		for _, c := range []struct {
			set  []string
			want string
		}{
			{nil, "minAvailable: 1"},
			{[]string{"podDisruptionBudget.maxUnavailable=1"}, "maxUnavailable: 1"},
			{[]string{"replicas=4", "podDisruptionBudget.maxUnavailable=25%"}, "maxUnavailable: 25%"},
			{[]string{"replicas=3", "podDisruptionBudget.minAvailable=2"}, "minAvailable: 2"},
		} {
			spec := RenderedField(t, RenderedObject(t, render(t, c.set...), key), "spec")
			if first, _, _ := strings.Cut(spec, "\n"); first != c.want {
				t.Errorf("%v: the budget is %q, want %q", c.set, first, c.want)
			}
		}
	})

	t.Run("affinity", func(t *testing.T) {
		objects := ParseObjects(t, "helm template", Helm(t, "template", "rel", ChartDir, "--namespace", "ops",
			"-f", WriteFile(t, "values.yaml", "affinity: {podAntiAffinity: {}}\n")))
		deployment := RenderedObject(t, objects, "Deployment/ops/rel-network-controller")
		if got := RenderedField(t, deployment, "spec", "template", "spec", "affinity"); got != "podAntiAffinity: {}" {
			t.Errorf("podAntiAffinity {} replaces the default: got %s", got)
		}
	})

	t.Run("ServiceMonitor", func(t *testing.T) {
		objects := render(t, "metrics.serviceMonitor.enabled=true", "metrics.certSecret=metrics-tls", "metrics.serviceMonitor.insecureSkipVerify=false")
		if got, want := RenderedField(t, RenderedObject(t, objects, "ServiceMonitor/ops/rel-network-controller"), "spec", "endpoints"),
			"- authorization:\n    credentials:\n      key: token\n      name: rel-network-controller-metrics-scraper\n    type: Bearer\n"+
				"  interval: 30s\n  path: /metrics\n  port: metrics\n  scheme: https\n  tlsConfig:\n    ca:\n      secret:\n        key: ca.crt\n        name: metrics-tls\n"+
				"    insecureSkipVerify: false\n    serverName: rel-network-controller-metrics.ops.svc"; got != want {
			t.Errorf("endpoints\n%s\nwant\n%s", got, want)
		}
		// The scraper: a ServiceAccount, its token Secret, the metrics-reader role.
		const scraper = "rel-network-controller-metrics-scraper"
		RenderedObject(t, objects, "ServiceAccount/ops/"+scraper)
		secret := RenderedObject(t, objects, "Secret/ops/"+scraper)
		if typ := RenderedField(t, secret, "type"); typ != "kubernetes.io/service-account-token" || secret.GetAnnotations()["kubernetes.io/service-account.name"] != scraper {
			t.Errorf("the scraper's Secret: type %s, annotations %v", typ, secret.GetAnnotations())
		}
		if got, want := RenderedField(t, RenderedObject(t, objects, "ClusterRoleBinding//"+scraper), "roleRef", "name"), "rel-network-controller-metrics-reader"; got != want {
			t.Errorf("the scraper is bound to %s, want %s", got, want)
		}

		// Without metrics.secure: plain HTTP, no token, no scraper.
		objects = render(t, "metrics.serviceMonitor.enabled=true", "metrics.secure=false")
		if got, want := RenderedField(t, RenderedObject(t, objects, "ServiceMonitor/ops/rel-network-controller"), "spec", "endpoints"),
			"- interval: 30s\n  path: /metrics\n  port: metrics\n  scheme: http"; got != want {
			t.Errorf("endpoints without metrics.secure\n%s\nwant\n%s", got, want)
		}
		if _, ok := objects["Secret/ops/"+scraper]; ok {
			t.Errorf("the chart renders the scraper's token without metrics.secure")
		}
	})
}
