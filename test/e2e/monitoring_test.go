//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// scrapeJob is the job name of the test's Prometheus, the value its dashboard queries
// get for $job.
const scrapeJob = "network-controller-metrics"

// TestMonitoringOnPrometheus runs the controller as its ServiceAccount with -metrics-secure
// and a certificate from -metrics-cert-dir, and Debian's Prometheus scraping it with a
// metrics-reader token (and, as a second job, with a token without that role, which must
// fail). It checks 401 without a token and 403 without the role; a Network stuck on a
// Neutron outage (a proxy answering 500) makes the NetworkControllerNetworksNotReady alert
// of deploy/monitoring/ pending, and it clears when Neutron is back; then every query of
// the dashboard and every series of every alert expression returns data, and every alert
// expression evaluates. The shipped rules are loaded with one documented change: every
// "for:" is 10s.
func TestMonitoringOnPrometheus(t *testing.T) {
	t.Parallel()
	applyDeployRBAC(t)
	ns := NewNamespace(t)
	reader, other := ScraperTokens(t, ns)
	dir := t.TempDir()

	// A serving certificate the scraper verifies, as cert-manager would mount it.
	certDir := filepath.Join(dir, "cert")
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("localhost", []net.IP{net.IPv4(127, 0, 0, 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(certDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM, "reader.token": []byte(reader), "other.token": []byte(other)} {
		p := filepath.Join(certDir, name)
		if strings.HasSuffix(name, ".token") {
			p = filepath.Join(dir, name)
		}
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	proxy := StartFaultProxy(t, NeutronEndpoint, 1, FaultRates{})
	opts, _ := InClusterAs(t, deployNamespace, deployServiceAccount)
	opts.Namespaces = []string{ns}
	opts.Args = []string{"-neutron-endpoint=" + proxy.URL(), "-metrics-secure=true", "-metrics-cert-dir=" + certDir, "-retry-max-delay=2s",
		"-neutron-resync-period=2s"}
	// As the Deployment sets it from the memory limit; the dashboard draws the limit.
	opts.Env = append(opts.Env, "GOMEMLIMIT=256MiB")
	ctrl := StartController(t, opts).WaitConnected()
	metricsURL := strings.Replace(ctrl.MetricsURL, "http://", "https://", 1)
	Eventually(t, 30*time.Second, 200*time.Millisecond, "the HTTPS metrics server", func() error {
		_, _, err := SecureGet(metricsURL, "")
		return err
	})
	CheckSecureMetrics(t, metricsURL, reader, other)

	rules, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "monitoring", "network-controller.rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), []byte(substituteForDuration(string(rules), "10s")), 0o600); err != nil {
		t.Fatal(err)
	}
	target := strings.TrimSuffix(strings.TrimPrefix(metricsURL, "https://"), "/metrics")
	job := func(name, tokenFile string) string {
		return fmt.Sprintf(`  - job_name: %s
    scheme: https
    authorization: {credentials_file: %s}
    tls_config: {ca_file: %s}
    static_configs: [{targets: ["%s"]}]
`, name, filepath.Join(dir, tokenFile), filepath.Join(certDir, "tls.crt"), target)
	}
	prom := StartPrometheus(t, dir, "global: {scrape_interval: 1s, evaluation_interval: 1s}\nrule_files: [rules.yaml]\nscrape_configs:\n"+
		job(scrapeJob, "reader.token")+job("no-metrics-role", "other.token"))
	Eventually(t, 60*time.Second, 500*time.Millisecond, "Prometheus to scrape with the metrics-reader token only", func() error {
		for name, want := range map[string]string{scrapeJob: "1", "no-metrics-role": "0"} {
			samples, err := prom.Query(`up{job="` + name + `"}`)
			if err != nil {
				return err
			}
			if len(samples) != 1 || samples[0].Value[1] != want {
				return fmt.Errorf("up{job=%q} = %v, want %s", name, samples, want)
			}
		}
		return nil
	})

	// A Network made Ready, then one stuck on a Neutron outage.
	CreateNetwork(t, ns, "steady", "10.77.0.0/24", "")
	WaitReady(t, ns, "steady", 60*time.Second)
	proxy.SetRates(FaultRates{Error500: 1})
	CreateNetwork(t, ns, "stuck", "10.77.1.0/24", "")
	WaitNetwork(t, ns, "stuck", 60*time.Second, "Ready=False NeutronUnavailable", func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || c.Reason != samplecrdv1.ReasonNeutronUnavailable {
			return fmt.Errorf("%s", DescribeReady(n))
		}
		return nil
	})
	notReady := func() (string, error) {
		alerts, err := prom.Alerts()
		if err != nil {
			return "", err
		}
		for _, a := range alerts {
			if a.Labels["alertname"] == "NetworkControllerNetworksNotReady" && a.Labels["reason"] == samplecrdv1.ReasonNeutronUnavailable {
				return a.State, nil
			}
		}
		return "", nil
	}
	Eventually(t, 60*time.Second, 500*time.Millisecond, "NetworkControllerNetworksNotReady{reason=NeutronUnavailable} to become pending", func() error {
		state, err := notReady()
		if err == nil && state != "pending" && state != "firing" {
			err = fmt.Errorf("state %q", state)
		}
		return err
	})
	proxy.SetRates(FaultRates{})
	WaitReady(t, ns, "stuck", 60*time.Second)
	Eventually(t, 60*time.Second, 500*time.Millisecond, "NetworkControllerNetworksNotReady to clear after Neutron is back", func() error {
		state, err := notReady()
		if err == nil && state != "" {
			err = fmt.Errorf("still %s", state)
		}
		return err
	})

	// A Network of the list form whose one subnet can hand out one address, taken by a
	// port: counted at the next resync, it makes NetworkControllerSubnetNearlyFull pending,
	// naming the Network and the item.
	full := listItem("tiny", "10.77.2.0/24")
	full.AllocationPools = []samplecrdv1.AllocationPool{{Start: "10.77.2.10", End: "10.77.2.10"}}
	CreateNetworkWithSpec(t, ns, "full", samplecrdv1.NetworkSpec{Subnets: []samplecrdv1.NetworkSubnet{full}})
	fullNet := waitItemsReady(t, ns, "full", 1, map[string]string{"tiny": "10.77.2.0/24"})
	port := CreatePort(t, fullNet.Status.NetworkID, statusItem(t, fullNet, "tiny").SubnetID)
	WaitNetwork(t, ns, "full", 60*time.Second, "status counting the port", func(n *samplecrdv1.Network) error {
		if a := findItem(n, "tiny").Addresses; a == nil || a.Used != 1 || a.Total != 1 || n.Status.AddressUse != "tiny 100% (1/1)" {
			return fmt.Errorf("addresses %+v, use %q", a, n.Status.AddressUse)
		}
		return nil
	})
	Eventually(t, 60*time.Second, 500*time.Millisecond, "NetworkControllerSubnetNearlyFull naming the Network", func() error {
		alerts, err := prom.Alerts()
		if err != nil {
			return err
		}
		for _, a := range alerts {
			if a.Labels["alertname"] == "NetworkControllerSubnetNearlyFull" && a.Labels["namespace"] == ns &&
				a.Labels["network"] == "full" && a.Labels["subnet"] == "tiny" && (a.State == "pending" || a.State == "firing") {
				return nil
			}
		}
		return fmt.Errorf("alerts %+v", alerts)
	})

	// What the Networks leave in the series the alerts and the dashboard read.
	Eventually(t, 30*time.Second, 500*time.Millisecond, "the Networks counted Ready and timed", func() error {
		for expr, want := range map[string]string{
			`network_controller_networks{job="` + scrapeJob + `",status="True",reason="Provisioned"}`:         "3",
			`network_controller_networks{job="` + scrapeJob + `",status="False",reason="NeutronUnavailable"}`: "0",
			`network_controller_time_to_ready_seconds_count{job="` + scrapeJob + `",change="create"}`:         "3",
			`network_controller_leader{job="` + scrapeJob + `"}`:                                              "1",
			`network_controller_keystone_token_requests_total{job="` + scrapeJob + `",outcome="unavailable"}`: "0",
		} {
			samples, err := prom.Query(expr)
			if err != nil {
				return err
			}
			if len(samples) != 1 || samples[0].Value[1] != want {
				all, _ := prom.Query(`{__name__=~"network_controller_(time_to_ready_seconds_count|networks)"}`)
				return fmt.Errorf("%s = %v, want %s; all: %v", expr, samples, want, all)
			}
		}
		return nil
	})
	checkDashboardQueries(t, prom)
	checkAlertExpressions(t, prom, rules)

	MustNeutron(t, http.MethodDelete, "v2.0/ports/"+port, nil, nil, http.StatusNoContent)
	for _, name := range []string{"steady", "stuck", "full"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 60*time.Second)
	}
}

// checkDashboardQueries evaluates every query of the dashboard, its Grafana variables
// substituted ($job: the scrape job, $__rate_interval: 1m): each must return data.
func checkDashboardQueries(t *testing.T, prom *Prometheus) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "monitoring", "dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	type panel struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
		Panels []json.RawMessage `json:"panels"`
	}
	var dashboard struct {
		Panels []panel `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dashboard); err != nil {
		t.Fatalf("parsing dashboard.json: %v", err)
	}
	queries := 0
	for _, p := range dashboard.Panels {
		for _, target := range p.Targets {
			expr := substituteDashboardVariables(target.Expr, scrapeJob, "1m")
			queries++
			samples, err := prom.Query(expr)
			if err != nil || len(samples) == 0 {
				t.Errorf("dashboard panel %q: %s returned %d series (%v)", p.Title, expr, len(samples), err)
			}
		}
	}
	if queries < 10 {
		t.Errorf("the dashboard has %d queries, want every panel's", queries)
	}
	// The $job variable's own query.
	var jobs []string
	if err := prom.api("/api/v1/label/job/values", url.Values{"match[]": {"network_controller_leader"}}, &jobs); err != nil || !slices.Contains(jobs, scrapeJob) {
		t.Errorf("label_values(network_controller_leader, job) = %q (%v), want %s among them", jobs, err, scrapeJob)
	}
	t.Logf("%d dashboard queries returned data", queries)
}

// checkAlertExpressions evaluates every alert expression of the rules file, and checks
// that each series it reads exists.
// shardsOnly are the series a controller exports only with -shards, which this test's
// controller does not run with.
var shardsOnly = map[string]bool{"network_controller_shard_held": true}

func checkAlertExpressions(t *testing.T, prom *Prometheus, rules []byte) {
	t.Helper()
	var file struct {
		Groups []struct {
			Rules []struct {
				Alert string `json:"alert"`
				Expr  string `json:"expr"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.Unmarshal(rules, &file); err != nil {
		t.Fatalf("parsing the rules file: %v", err)
	}
	alerts := 0
	for _, g := range file.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			alerts++
			if _, err := prom.Query(r.Expr); err != nil {
				t.Errorf("alert %s: %v", r.Alert, err)
			}
			names := metricNames.FindAllString(r.Expr, -1)
			if len(names) == 0 {
				t.Errorf("alert %s reads no series of the controller: %s", r.Alert, r.Expr)
			}
			for _, name := range names {
				if shardsOnly[name] {
					// Exported with -shards only; TestShards reads them there.
					continue
				}
				if samples, err := prom.Query(name + `{job="` + scrapeJob + `"}`); err != nil || len(samples) == 0 {
					t.Errorf("alert %s reads %s, which has %d series (%v)", r.Alert, name, len(samples), err)
				}
			}
		}
	}
	if alerts < 5 {
		t.Errorf("the rules file has %d alerts", alerts)
	}
}
