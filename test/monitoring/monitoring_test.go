// Package monitoring tests the monitoring files of deploy/monitoring: that the
// PrometheusRule and the plain rules file hold the same rules, that every alert has its
// labels, annotations and runbook (a section of docs/operations.md), that the alerts on
// Network reasons agree with the API's list of reasons, and that the Grafana dashboard is
// well formed. The rules'
// behaviour is tested by promtool (alerts_test.yaml, hack/prometheus.sh check).
package monitoring

import (
	"os"
	"sort"
	"testing"
)

const (
	rulesFile          = "../../deploy/monitoring/network-controller.rules.yaml"
	prometheusRuleFile = "../../deploy/monitoring/prometheusrule.yaml"
	// The Helm chart's copy, which its PrometheusRule template reads (Helm reads only
	// files inside the chart).
	chartRulesFile = "../../charts/network-controller/files/network-controller.rules.yaml"
	dashboardFile  = "../../deploy/monitoring/dashboard.json"
	runbookFile    = "../../docs/operations.md"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return data
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
