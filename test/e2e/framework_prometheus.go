//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Prometheus is Debian's prometheus server, started by a test on loopback.
type Prometheus struct {
	URL string
	t   *testing.T
	log string
}

// StartPrometheus runs the prometheus binary hack/prometheus.sh installed with config
// (prometheus.yml text; rule files named in it are relative to its folder, dir) on a free
// loopback port, with its data in a temporary folder, and stops it by PID at cleanup.
func StartPrometheus(t *testing.T, dir, config string) *Prometheus {
	t.Helper()
	binary, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatalf("no prometheus binary (hack/e2e.sh installs Debian's package with hack/prometheus.sh install): %v", err)
	}
	configPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(configPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddress(t)
	p := &Prometheus{URL: "http://" + addr, t: t, log: filepath.Join(dir, "prometheus.log")}
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "--config.file="+configPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=info")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("starting %s: %v", binary, err)
	}
	t.Logf("started prometheus pid %d on %s, log %s", cmd.Process.Pid, addr, p.log)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			raw, _ := os.ReadFile(p.log)
			t.Logf("--- prometheus log ---\n%s", LastLines(string(raw), 30))
		}
	})
	Eventually(t, 60*time.Second, 250*time.Millisecond, "prometheus to be ready", func() error {
		select {
		case <-done:
			raw, _ := os.ReadFile(p.log)
			t.Fatalf("prometheus exited:\n%s", LastLines(string(raw), 30))
		default:
		}
		return ExpectStatus(p.URL+"/-/ready", http.StatusOK)
	})
	return p
}

// api GETs a Prometheus API path and decodes its data into out.
func (p *Prometheus) api(path string, query url.Values, out any) error {
	resp, err := http.Get(p.URL + path + "?" + query.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var envelope struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &envelope); err != nil {
		return fmt.Errorf("GET %s: %d %q: %w", path, resp.StatusCode, body, err)
	}
	if envelope.Status != "success" {
		return fmt.Errorf("GET %s %s: %s", path, query.Encode(), envelope.Error)
	}
	return json.Unmarshal(envelope.Data, out)
}

// PromSample is one series of an instant query's answer.
type PromSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// Query evaluates expr now; a scalar answer is one sample without labels.
func (p *Prometheus) Query(expr string) ([]PromSample, error) {
	var data struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	if err := p.api("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return nil, err
	}
	if data.ResultType == "scalar" {
		var v [2]any
		err := json.Unmarshal(data.Result, &v)
		return []PromSample{{Value: v}}, err
	}
	var samples []PromSample
	err := json.Unmarshal(data.Result, &samples)
	return samples, err
}

// PromAlert is an active (pending or firing) alert.
type PromAlert struct {
	Labels map[string]string `json:"labels"`
	State  string            `json:"state"`
}

// Alerts returns the active alerts.
func (p *Prometheus) Alerts() ([]PromAlert, error) {
	var data struct {
		Alerts []PromAlert `json:"alerts"`
	}
	err := p.api("/api/v1/alerts", url.Values{}, &data)
	return data.Alerts, err
}

// PromRule is a loaded alerting rule and how its last evaluation went.
type PromRule struct {
	Name   string `json:"name"`
	Health string `json:"health"`
	Type   string `json:"type"`
}

// AlertingRules returns the alerting rules Prometheus loaded, of every group.
func (p *Prometheus) AlertingRules() ([]PromRule, error) {
	var data struct {
		Groups []struct {
			Rules []PromRule `json:"rules"`
		} `json:"groups"`
	}
	err := p.api("/api/v1/rules", url.Values{"type": {"alert"}}, &data)
	var rules []PromRule
	for _, g := range data.Groups {
		rules = append(rules, g.Rules...)
	}
	return rules, err
}

// metricNames finds the series names an expression reads: our own, client-go's
// workqueue's and the Go runtime's.
var metricNames = regexp.MustCompile(`\b(?:network_controller|workqueue|go|process)_[a-z_]+\b`)

// substituteForDuration is the documented change the e2e test makes to the shipped rules
// file: every alert's "for:" becomes forDuration, so an alert shows within the test.
func substituteForDuration(rules, forDuration string) string {
	return regexp.MustCompile(`(?m)^(\s+for:\s*)\S+$`).ReplaceAllString(rules, "${1}"+forDuration)
}

// substituteDashboardVariables is the documented change the e2e test makes to every query
// of the dashboard: the Grafana variables $job and $__rate_interval become a job name and
// a range.
func substituteDashboardVariables(expr, job, rateInterval string) string {
	return strings.NewReplacer("$__rate_interval", rateInterval, "$job", job).Replace(expr)
}
