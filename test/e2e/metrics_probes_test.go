//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// TestMetricsProbesAndJSONLogs runs the controller behind a proxy of the apiserver that
// holds back the Network informer's LIST/WATCH: /readyz must be 503 while the cache is not
// synced and 200 after, /healthz 200 throughout. Then a create/delete cycle, an orphan in
// Neutron and the periodic Neutron resync must show in every documented series of
// /metrics, and every line the process wrote with -logging-format=json must be JSON.
func TestMetricsProbesAndJSONLogs(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	networksCollection := "/apis/samplecrd.k8s.io/v1/namespaces/" + ns + "/networks"
	proxy := startHeldAPIProxy(t, networksCollection)
	ctrl := StartController(t, ControllerOptions{
		Namespaces: []string{ns},
		Kubeconfig: proxy.Kubeconfig(t),
		Args: []string{
			"-logging-format=json",
			"-neutron-resync-period=2s",
			"-orphan-grace-period=0s",
		},
	}).WaitConnected()
	healthz, readyz := ctrl.HealthURL+"/healthz", ctrl.HealthURL+"/readyz"

	// The probe server listens once the startup checks (a plain ?limit=1 list, which the
	// proxy lets through) are done, while the informer is held back.
	Eventually(t, 30*time.Second, 100*time.Millisecond, "/healthz to answer 200", func() error {
		if code, err := ctrl.Wait(10 * time.Millisecond); err == nil {
			t.Fatalf("controller exited with %d during startup:\n%s", code, LastLines(ctrl.Logs(), 40))
		}
		return ExpectStatus(healthz, http.StatusOK)
	})
	Eventually(t, 10*time.Second, 50*time.Millisecond, "the informer's LIST/WATCH to reach the proxy", func() error {
		if proxy.Held() == 0 {
			return fmt.Errorf("requests so far: %q", proxy.Requests())
		}
		return nil
	})
	holdStart := time.Now()
	Consistently(t, 5*time.Second, 200*time.Millisecond, "/readyz 503 and /healthz 200 while the informer is held", func() error {
		code, body, err := httpGet(readyz)
		if err != nil {
			return err
		}
		if code != http.StatusServiceUnavailable || !strings.Contains(body, "not synced") {
			return fmt.Errorf("GET /readyz = %d %q, want 503 \"informer cache not synced yet\"", code, strings.TrimSpace(body))
		}
		return ExpectStatus(healthz, http.StatusOK)
	})
	proxy.Release()
	t.Logf("released the informer after %s; requests seen by the proxy:\n  %s",
		time.Since(holdStart).Round(time.Millisecond), strings.Join(proxy.Requests(), "\n  "))
	Eventually(t, 30*time.Second, 100*time.Millisecond, "/readyz 200 after the cache synced", func() error {
		return ExpectStatus(readyz, http.StatusOK)
	})
	if err := ExpectStatus(healthz, http.StatusOK); err != nil {
		t.Errorf("/healthz after sync: %v", err)
	}
	var startupList, held bool
	for _, r := range proxy.Requests() {
		startupList = startupList || r == "GET "+networksCollection+"?limit=1"
		held = held || strings.HasPrefix(r, "GET "+networksCollection+"?") && r != "GET "+networksCollection+"?limit=1"
	}
	if !startupList || !held {
		t.Errorf("expected the startup check GET %s?limit=1 and an informer LIST/WATCH; saw %q", networksCollection, proxy.Requests())
	}

	// Create/delete cycle.
	const name = "metrics-net"
	CreateNetwork(t, ns, name, "10.71.0.0/24", "")
	n := WaitReady(t, ns, name, 60*time.Second)
	owner := OwnerOf(ctrl.ClusterID, n)
	Eventually(t, 30*time.Second, 250*time.Millisecond, "this controller's Neutron network and subnet", func() error {
		_, sub, err := OwnedResources(t, owner)
		if err == nil && (sub.CIDR != "10.71.0.0/24" || sub.GatewayIP != "10.71.0.1") {
			err = fmt.Errorf("subnet %s is %s gateway %s", sub.ID, sub.CIDR, sub.GatewayIP)
		}
		return err
	})
	// The resync (every 2 s) counts this cluster's Neutron networks: just this one.
	waitMetric(t, ctrl, "network_controller_managed_networks", nil, func(v float64) bool { return v == 1 }, "== 1")

	// An orphan: a network of this cluster whose Network UID does not exist. The resync
	// deletes it (grace period 0).
	gone := neutron.Owner{ClusterID: ctrl.ClusterID, Namespace: ns, Name: "gone", UID: fakeUID()}
	orphan := CreateForeignNetwork(t, gone.ResourceName(), neutron.ClusterDescription(ctrl.ClusterID), gone.Tags())
	waitMetric(t, ctrl, "network_controller_orphans_collected_total", nil, func(v float64) bool { return v >= 1 }, ">= 1")
	if NetworkExists(t, orphan.ID) {
		t.Errorf("orphaned Neutron network %s still exists after orphans_collected_total went up", orphan.ID)
	}

	DeleteNetwork(t, ns, name)
	WaitGone(t, ns, name, 60*time.Second)
	WaitNeutronEmpty(t, owner, 30*time.Second)
	waitMetric(t, ctrl, "network_controller_managed_networks", nil, func(v float64) bool { return v == 0 }, "== 0")

	// Every documented series, after the cycle.
	families, err := ctrl.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	positive := func(v float64) bool { return v > 0 }
	nonNegative := func(v float64) bool { return v >= 0 }
	present := func(float64) bool { return true }
	checks := []struct {
		family string
		typ    string
		labels []string
		ok     func(float64) bool
		want   string
	}{
		{"workqueue_adds_total", "COUNTER", []string{"name=networks"}, positive, "> 0"},
		{"workqueue_depth", "GAUGE", []string{"name=networks"}, present, "present"},
		{"workqueue_work_duration_seconds", "HISTOGRAM", []string{"name=networks"}, positive, "count > 0"},
		{"workqueue_queue_duration_seconds", "HISTOGRAM", []string{"name=networks"}, positive, "count > 0"},
		{"workqueue_retries_total", "COUNTER", []string{"name=networks"}, present, "present"},
		{"workqueue_unfinished_work_seconds", "GAUGE", []string{"name=networks"}, present, "present"},
		{"workqueue_longest_running_processor_seconds", "GAUGE", []string{"name=networks"}, present, "present"},
		{"network_controller_reconcile_total", "COUNTER", []string{"result=success"}, positive, "> 0"},
		{"network_controller_reconcile_duration_seconds", "HISTOGRAM", []string{"result=success"}, positive, "count > 0"},
		{"network_controller_neutron_requests_total", "COUNTER", []string{"operation=ping", "outcome=ok"}, positive, "> 0"},
		{"network_controller_neutron_requests_total", "COUNTER", []string{"operation=create network", "outcome=ok"}, positive, "> 0"},
		{"network_controller_neutron_requests_total", "COUNTER", []string{"operation=create subnet", "outcome=ok"}, positive, "> 0"},
		{"network_controller_neutron_requests_total", "COUNTER", []string{"operation=list networks", "outcome=ok"}, positive, "> 0"},
		{"network_controller_neutron_requests_total", "COUNTER", []string{"operation=tag network", "outcome=ok"}, positive, "> 0"},
		{"network_controller_neutron_rate_limit_wait_seconds_total", "COUNTER", []string{"limiter=total"}, nonNegative, ">= 0"},
		{"network_controller_neutron_rate_limit_wait_seconds_total", "COUNTER", []string{"limiter=project"}, nonNegative, ">= 0"},
		// The Network was created after the initial list: a user change. The other
		// classes exist at zero.
		{"network_controller_workqueue_wait_seconds", "HISTOGRAM", []string{"class=user_change"}, positive, "count > 0"},
		{"network_controller_workqueue_wait_seconds", "HISTOGRAM", []string{"class=initial_list"}, nonNegative, "present"},
		{"network_controller_workqueue_wait_seconds", "HISTOGRAM", []string{"class=resync"}, nonNegative, "present"},
		{"network_controller_workqueue_wait_seconds", "HISTOGRAM", []string{"class=retry"}, nonNegative, "present"},
		{"network_controller_neutron_requests_total", "COUNTER", []string{"operation=delete network", "outcome=ok"}, positive, "> 0"},
		{"network_controller_neutron_request_duration_seconds", "HISTOGRAM", []string{"operation=create network"}, positive, "count > 0"},
		{"network_controller_managed_networks", "GAUGE", nil, present, "present"},
		{"network_controller_cached_networks", "GAUGE", nil, nonNegative, ">= 0"},
		{"network_controller_orphans_collected_total", "COUNTER", nil, func(v float64) bool { return v >= 1 }, ">= 1"},
		// client-go's REST client, under Kubernetes' names: by verb, host and code.
		{"rest_client_requests_total", "COUNTER", []string{"code=200", "method=GET"}, positive, "> 0"},
		{"rest_client_request_duration_seconds", "HISTOGRAM", []string{"verb=GET"}, positive, "count > 0"},
		{"rest_client_rate_limiter_duration_seconds", "HISTOGRAM", []string{"verb=GET"}, positive, "count > 0"},
		// The Go runtime and process collectors.
		{"go_goroutines", "GAUGE", nil, positive, "> 0"},
		{"process_resident_memory_bytes", "GAUGE", nil, positive, "> 0"},
	}
	for _, c := range checks {
		mf := families[c.family]
		if mf == nil {
			t.Errorf("/metrics has no %s", c.family)
			continue
		}
		if got := mf.GetType().String(); got != c.typ {
			t.Errorf("%s has type %s, want %s", c.family, got, c.typ)
		}
		v, found := metricSample(families, c.family, c.labels...)
		if !found {
			t.Errorf("/metrics has no %s series with labels %v", c.family, c.labels)
			continue
		}
		if !c.ok(v) {
			t.Errorf("%s%v = %v, want %s", c.family, c.labels, v, c.want)
		}
	}
	if v, _ := metricSample(families, "network_controller_reconcile_total", "result=error"); v != 0 {
		t.Logf("note: %v reconciles failed (conflicts with other writers are retried)", v)
	}

	// Graceful stop, then the JSON check of everything the process wrote.
	ctrl.Stop()
	if code, err := ctrl.Wait(5 * time.Second); err != nil || code != 0 {
		t.Errorf("controller exited with %d after SIGTERM, want 0", code)
	}
	logs := ctrl.Logs()
	lines, problems := jsonLogProblems(logs)
	for _, p := range problems {
		t.Errorf("-logging-format=json: %s", p)
	}
	if lines < 10 {
		t.Errorf("only %d log lines; expected a full run's worth", lines)
	}
	for _, msg := range []string{"Connected", "Starting workers", "Created Neutron network", "Workers stopped"} {
		if !jsonLogHas(logs, msg, "v=0") {
			t.Errorf("JSON log has no line with msg %q and v 0", msg)
		}
	}
	if !jsonLogHas(logs, "Serving", "server=health probe") {
		t.Errorf("JSON log has no \"Serving\" line for the health probe server with a server attribute")
	}
}

// waitMetric polls one series until ok accepts its value.
func waitMetric(t *testing.T, ctrl *Controller, family string, labels []string, ok func(float64) bool, want string) {
	t.Helper()
	Eventually(t, 30*time.Second, 250*time.Millisecond, fmt.Sprintf("%s%v %s", family, labels, want), func() error {
		v, err := ctrl.Metric(family, labels...)
		if err != nil {
			return err
		}
		if !ok(v) {
			return fmt.Errorf("value %v", v)
		}
		return nil
	})
}

// apiProxy is a plain-HTTP reverse proxy in front of the real apiserver (TLS and the admin
// credentials are added on the way out) that holds back the Network informer's LIST and
// WATCH until Release, and records every request.
type apiProxy struct {
	srv      *httptest.Server
	release  chan struct{}
	released sync.Once

	mu       sync.Mutex
	requests []string
	held     int
}

// startHeldAPIProxy starts the proxy, holding the informer's requests for the Networks at
// networksCollection (the path of a namespace's Networks).
func startHeldAPIProxy(t testing.TB, networksCollection string) *apiProxy {
	t.Helper()
	cfg := AdminConfig(t)
	target, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatalf("parsing apiserver URL %q: %v", cfg.Host, err)
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatalf("apiserver transport: %v", err)
	}
	p := &apiProxy{release: make(chan struct{})}
	// FlushInterval -1: watches stream, every event passes on at once.
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }, Transport: rt, FlushInterval: -1}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		informer := isInformerRequest(r, networksCollection)
		p.mu.Lock()
		p.requests = append(p.requests, r.Method+" "+r.URL.RequestURI())
		if informer {
			p.held++
		}
		p.mu.Unlock()
		if informer {
			select {
			case <-p.release:
			case <-r.Context().Done():
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		p.Release()
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
	return p
}

// isInformerRequest tells the reflector's LIST (with resourceVersion) or WATCH (or
// watch-list) of the Networks at networksCollection from the controller's startup check, a
// plain ?limit=1 list.
func isInformerRequest(r *http.Request, networksCollection string) bool {
	q := r.URL.Query()
	return r.URL.Path == networksCollection && (q.Has("resourceVersion") || q.Get("watch") == "true" || q.Get("watch") == "1")
}

// Release lets held requests and all later ones through.
func (p *apiProxy) Release() { p.released.Do(func() { close(p.release) }) }

// Held is how many informer requests arrived (and were held while not released).
func (p *apiProxy) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// Requests lists the requests seen so far ("GET /path?query").
func (p *apiProxy) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

// Kubeconfig writes a kubeconfig for the proxy (no credentials: the proxy adds them).
func (p *apiProxy) Kubeconfig(t testing.TB) string {
	t.Helper()
	return WriteFile(t, "proxy.kubeconfig", fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: proxy, cluster: {server: %q}}]
users: [{name: proxied, user: {}}]
contexts: [{name: proxy, context: {cluster: proxy, user: proxied}}]
current-context: proxy
`, p.srv.URL))
}
