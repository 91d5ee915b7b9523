package monitoring

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

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
