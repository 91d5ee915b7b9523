package monitoring

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

const (
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
	"NetworkControllerShardUnheld",
	"NetworkControllerMemoryNearLimit",
	"NetworkControllerOwnCredentialsRefused",
	"NetworkControllerOrphanCollectionHalted",
	"NetworkControllerSubnetNearlyFull",
	"NetworkControllerProjectOverQuota",
	"NetworkControllerCredentialsExpiring",
	"NetworkControllerPowersKeptWithoutGrant",
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

func TestChartRulesAreTheRulesFile(t *testing.T) {
	if chart, plain := readFile(t, chartRulesFile), readFile(t, rulesFile); !bytes.Equal(chart, plain) {
		t.Errorf("%s differs from %s; copy it: cp %s %s", chartRulesFile, rulesFile,
			strings.TrimPrefix(rulesFile, "../../"), strings.TrimPrefix(chartRulesFile, "../../"))
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
