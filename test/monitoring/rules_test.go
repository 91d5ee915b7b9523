// Package monitoring tests the monitoring files of deploy/monitoring: that the
// PrometheusRule and the plain rules file hold the same rules, that every alert has its
// labels, annotations and runbook (a section of docs/operations.md), that the alerts on
// Network reasons agree with the API's list of reasons, and that the Grafana dashboard is
// well formed. The rules'
// behaviour is tested by promtool (alerts_test.yaml, hack/prometheus.sh check).
package monitoring

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

const (
	rulesFile          = "../../deploy/monitoring/network-controller.rules.yaml"
	prometheusRuleFile = "../../deploy/monitoring/prometheusrule.yaml"
	dashboardFile      = "../../deploy/monitoring/dashboard.json"
	runbookFile        = "../../docs/operations.md"

	runbookBase = "https://github.com/samplecrd/network-controller/blob/main/docs/operations.md#"

	alertNotReady = "NetworkControllerNetworksNotReady"
	alertRejected = "NetworkControllerNetworksRejected"
)

// expectedAlerts are the alerts the rules file ships.
var expectedAlerts = []string{
	alertNotReady,
	alertRejected,
	"NetworkControllerNeutronUnavailable",
	"NetworkControllerNeutronErrors",
	"NetworkControllerWorkqueueNotDraining",
	"NetworkControllerNoLeader",
	"NetworkControllerMemoryNearLimit",
	"NetworkControllerOwnCredentialsRefused",
	"NetworkControllerOrphanCollectionHalted",
}

type ruleFile struct {
	Groups []ruleGroup `json:"groups"`
}

type ruleGroup struct {
	Name  string `json:"name"`
	Rules []rule `json:"rules"`
}

type rule struct {
	Alert       string            `json:"alert"`
	Record      string            `json:"record"`
	Expr        string            `json:"expr"`
	For         string            `json:"for"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return data
}

// alerts returns the alerting rules of the plain rules file, by name.
func alerts(t *testing.T) map[string]rule {
	t.Helper()
	var f ruleFile
	if err := yaml.UnmarshalStrict(readFile(t, rulesFile), &f); err != nil {
		t.Fatalf("parsing %s: %v", rulesFile, err)
	}
	if len(f.Groups) != 1 || f.Groups[0].Name != "network-controller" {
		t.Fatalf("%s: want one group named network-controller, got %d groups", rulesFile, len(f.Groups))
	}
	byName := map[string]rule{}
	for _, r := range f.Groups[0].Rules {
		if r.Alert == "" {
			t.Errorf("%s: rule %q is not an alert", rulesFile, r.Record)
			continue
		}
		if _, dup := byName[r.Alert]; dup {
			t.Errorf("%s: alert %s defined twice", rulesFile, r.Alert)
		}
		byName[r.Alert] = r
	}
	return byName
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestPrometheusRuleMatchesRulesFile(t *testing.T) {
	var plain map[string]any
	if err := yaml.Unmarshal(readFile(t, rulesFile), &plain); err != nil {
		t.Fatalf("parsing %s: %v", rulesFile, err)
	}
	var pr struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string            `json:"name"`
			Namespace string            `json:"namespace"`
			Labels    map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec map[string]any `json:"spec"`
	}
	if err := yaml.Unmarshal(readFile(t, prometheusRuleFile), &pr); err != nil {
		t.Fatalf("parsing %s: %v", prometheusRuleFile, err)
	}
	if pr.APIVersion != "monitoring.coreos.com/v1" || pr.Kind != "PrometheusRule" {
		t.Errorf("%s: got %s %s, want monitoring.coreos.com/v1 PrometheusRule", prometheusRuleFile, pr.APIVersion, pr.Kind)
	}
	if pr.Metadata.Name != "network-controller" || pr.Metadata.Namespace != "network-controller" ||
		pr.Metadata.Labels["app.kubernetes.io/name"] != "network-controller" {
		t.Errorf("%s: metadata %+v, want name and namespace network-controller, label app.kubernetes.io/name: network-controller",
			prometheusRuleFile, pr.Metadata)
	}
	want, ok := plain["groups"].([]any)
	if !ok || len(want) == 0 {
		t.Fatalf("%s: no groups", rulesFile)
	}
	if got := pr.Spec["groups"]; !reflect.DeepEqual(got, want) {
		gotJSON, _ := json.MarshalIndent(got, "", "  ")
		wantJSON, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("spec.groups of %s differ from the groups of %s; edit both together.\n%s spec.groups:\n%s\n%s groups:\n%s",
			prometheusRuleFile, rulesFile, prometheusRuleFile, gotJSON, rulesFile, wantJSON)
	}
}

func TestAlertsHaveLabelsAnnotationsAndRunbooks(t *testing.T) {
	byName := alerts(t)
	if got := sortedKeys(byName); !slices.Equal(got, slices.Sorted(slices.Values(expectedAlerts))) {
		t.Errorf("%s: alerts %v, want %v", rulesFile, got, slices.Sorted(slices.Values(expectedAlerts)))
	}
	for _, name := range sortedKeys(byName) {
		r := byName[name]
		if r.Labels["severity"] == "" {
			t.Errorf("%s: no severity label", name)
		}
		for _, a := range []string{"summary", "description", "runbook_url"} {
			if strings.TrimSpace(r.Annotations[a]) == "" {
				t.Errorf("%s: no %s annotation", name, a)
			}
		}
		if want := runbookBase + strings.ToLower(name); r.Annotations["runbook_url"] != want {
			t.Errorf("%s: runbook_url %q, want %q", name, r.Annotations["runbook_url"], want)
		}
	}

	headings := map[string]bool{}
	for _, line := range strings.Split(string(readFile(t, runbookFile)), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimRight(line, " \t\r"), "#### "); ok {
			headings[strings.TrimSpace(h)] = true
		}
	}
	var missing []string
	for _, name := range sortedKeys(byName) {
		if !headings[name] {
			missing = append(missing, "#### "+name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s has no runbook heading for %d alerts (their runbook_url points there); add these lines:\n\t%s",
			runbookFile, len(missing), strings.Join(missing, "\n\t"))
	}
}

// reasonRegex returns the regular expression the alert's expression matches the reason
// label with, operator being =~ or !~.
func reasonRegex(t *testing.T, r rule, operator string) string {
	t.Helper()
	re := regexp.MustCompile(`reason` + regexp.QuoteMeta(operator) + `"([^"]*)"`)
	m := re.FindAllStringSubmatch(r.Expr, -1)
	if len(m) != 1 {
		t.Fatalf("%s: want one reason%s\"...\" matcher in %q, found %d", r.Alert, operator, r.Expr, len(m))
	}
	return m[0][1]
}

func TestReasonAlertsCoverEveryReasonOnce(t *testing.T) {
	byName := alerts(t)
	notReady, ok := byName[alertNotReady]
	if !ok {
		t.Fatalf("no alert %s", alertNotReady)
	}
	rejected, ok := byName[alertRejected]
	if !ok {
		t.Fatalf("no alert %s", alertRejected)
	}

	// The reasons the controller retries, and the ones no retry cures.
	transient := []string{"Pending"}
	var terminal []string
	for _, r := range samplecrdv1.ReadyReasons {
		switch {
		case r == samplecrdv1.ReasonProvisioned || r == samplecrdv1.ReasonImported:
		case !slices.Contains(samplecrdv1.TransientReasons, r):
			terminal = append(terminal, r)
		default:
			transient = append(transient, r)
		}
	}
	if len(terminal) == 0 {
		t.Fatal("samplecrdv1.ReadyReasons has no terminal reason")
	}

	list := reasonRegex(t, notReady, "=~")
	got := strings.Split(list, "|")
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(transient))) {
		t.Errorf("%s: reason=~%q lists %v, want exactly the transient reasons %v (Pending and every reason of samplecrdv1.ReadyReasons that is not terminal, Provisioned or Imported)",
			alertNotReady, list, got, transient)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(got)))) != len(got) {
		t.Errorf("%s: reason=~%q lists a reason twice", alertNotReady, list)
	}
	if negated := reasonRegex(t, rejected, "!~"); negated != list {
		t.Errorf("%s: reason!~%q, want the list of %s, %q, so that every failure reason is in exactly one alert",
			alertRejected, negated, alertNotReady, list)
	}

	// PromQL anchors label regular expressions at both ends.
	re, err := regexp.Compile("^(?:" + list + ")$")
	if err != nil {
		t.Fatalf("%s: reason regex %q: %v", alertNotReady, list, err)
	}
	for _, r := range transient {
		if !re.MatchString(r) {
			t.Errorf("transient reason %s: %s does not match it (and %s does)", r, alertNotReady, alertRejected)
		}
	}
	for _, r := range terminal {
		if re.MatchString(r) {
			t.Errorf("terminal reason %s: %s matches it (and %s does not)", r, alertNotReady, alertRejected)
		}
	}
}

type dashboard struct {
	UID           string `json:"uid"`
	Title         string `json:"title"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

type variable struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Query      any             `json:"query"`
	Datasource json.RawMessage `json:"datasource"`
	Refresh    int             `json:"refresh"`
	IncludeAll bool            `json:"includeAll"`
	AllValue   string          `json:"allValue"`
	Multi      bool            `json:"multi"`
}

type datasourceRef struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type panel struct {
	Title      string          `json:"title"`
	Type       string          `json:"type"`
	Datasource json.RawMessage `json:"datasource"`
	Targets    []struct {
		Expr       string          `json:"expr"`
		Datasource json.RawMessage `json:"datasource"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // of a row
}

var (
	grafanaVariable = regexp.MustCompile(`\$(?:\{([^}:]*)[^}]*\}|\[\[([^\]]*)\]\]|(\w+))`)
	selector        = regexp.MustCompile(`\{[^}]*\}`)
	metricSelector  = regexp.MustCompile(`([A-Za-z_:][A-Za-z0-9_:]*)\{`)
)

// isPrometheusVariable reports whether a datasource reference is the ${datasource} one.
func isPrometheusVariable(raw json.RawMessage) bool {
	var ref datasourceRef
	return json.Unmarshal(raw, &ref) == nil && ref == datasourceRef{Type: "prometheus", UID: "${datasource}"}
}

func TestDashboard(t *testing.T) {
	data := readFile(t, dashboardFile)
	if !json.Valid(data) {
		t.Fatalf("%s is not valid JSON", dashboardFile)
	}
	var d dashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("parsing %s: %v", dashboardFile, err)
	}
	if d.UID != "network-controller" || d.Title != "network-controller" || d.SchemaVersion != 39 {
		t.Errorf("uid %q, title %q, schemaVersion %d; want network-controller, network-controller, 39", d.UID, d.Title, d.SchemaVersion)
	}

	vars := map[string]variable{}
	for _, v := range d.Templating.List {
		vars[v.Name] = v
	}
	if len(vars) != 2 {
		t.Errorf("variables %v, want datasource and job only", sortedKeys(vars))
	}
	if v, ok := vars["datasource"]; !ok || v.Type != "datasource" || v.Query != "prometheus" {
		t.Errorf("variable datasource %+v, want type datasource, query prometheus", v)
	}
	job, ok := vars["job"]
	switch {
	case !ok:
		t.Errorf("no variable job")
	case job.Type != "query" || !(isPrometheusVariable(job.Datasource) || string(job.Datasource) == `"${datasource}"`) ||
		job.Query != "label_values(network_controller_leader, job)":
		t.Errorf("variable job: type %q, datasource %s, query %v; want query, ${datasource}, label_values(network_controller_leader, job)",
			job.Type, job.Datasource, job.Query)
	case job.Refresh != 2 || !job.IncludeAll || job.AllValue != ".+" || !job.Multi:
		t.Errorf("variable job: refresh %d, includeAll %t, allValue %q, multi %t; want 2 (on time range change), true, .+, true",
			job.Refresh, job.IncludeAll, job.AllValue, job.Multi)
	}

	var panels []panel
	for _, p := range d.Panels {
		panels = append(panels, p)
		panels = append(panels, p.Panels...)
	}
	if len(panels) == 0 {
		t.Fatal("no panels")
	}
	metrics := map[string]bool{}
	for _, p := range panels {
		if p.Type == "row" {
			continue
		}
		if !isPrometheusVariable(p.Datasource) {
			t.Errorf("panel %q: datasource %s, want {\"type\":\"prometheus\",\"uid\":\"${datasource}\"}", p.Title, p.Datasource)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no target", p.Title)
		}
		for _, target := range p.Targets {
			if len(target.Datasource) > 0 && !isPrometheusVariable(target.Datasource) {
				t.Errorf("panel %q: target datasource %s, want the panel's", p.Title, target.Datasource)
			}
			if strings.TrimSpace(target.Expr) == "" {
				t.Errorf("panel %q: a target has no expr", p.Title)
				continue
			}
			for _, m := range grafanaVariable.FindAllStringSubmatch(target.Expr, -1) {
				if name := m[1] + m[2] + m[3]; name != "job" && name != "__rate_interval" {
					t.Errorf("panel %q: %s uses %s; only $job and $__rate_interval may appear", p.Title, target.Expr, m[0])
				}
			}
			if strings.Count(target.Expr, "$job") != strings.Count(target.Expr, `job=~"$job"`) {
				t.Errorf("panel %q: %s uses $job other than as job=~\"$job\"", p.Title, target.Expr)
			}
			sels := selector.FindAllString(target.Expr, -1)
			if len(sels) == 0 {
				t.Errorf("panel %q: %s selects no series by label", p.Title, target.Expr)
			}
			for _, s := range sels {
				if !strings.Contains(s, `job=~"$job"`) {
					t.Errorf("panel %q: selector %s of %s lacks job=~\"$job\"", p.Title, s, target.Expr)
				}
			}
			for _, m := range metricSelector.FindAllStringSubmatch(target.Expr, -1) {
				metrics[m[1]] = true
			}
		}
	}
	for _, m := range []string{
		"network_controller_networks",
		"network_controller_time_to_ready_seconds_bucket",
		"network_controller_reconcile_total",
		"workqueue_depth",
		"workqueue_queue_duration_seconds_bucket",
		"network_controller_neutron_requests_total",
		"network_controller_neutron_rate_limit_wait_seconds_total",
		"network_controller_keystone_token_requests_total",
		"network_controller_leader",
	} {
		if !metrics[m] {
			t.Errorf("no panel shows %s (the dashboard uses %v)", m, sortedKeys(metrics))
		}
	}
}
