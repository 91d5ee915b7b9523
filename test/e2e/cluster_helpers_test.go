//go:build e2e

package e2e

// Helpers shared by the cluster_*, rbac_*, leader_* and metrics_* tests: an apiserver
// proxy that can hold back the informer and scope the controller to one namespace, a
// Neutron proxy that can slow a create down, Lease and metrics readers, and a runner for
// processes the framework's StartController cannot start (the in-cluster controller runs
// inside a private mount namespace).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// adminConfig is the REST configuration of the admin Kubeconfig.
func adminConfig(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", Kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", Kubeconfig, err)
	}
	return cfg
}

// controllerIdentity is the leader election identity pkg/leaderelect gives the process pid on
// this host.
func controllerIdentity(t testing.TB, pid int) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatalf("hostname: %v", err)
	}
	return fmt.Sprintf("%s_%d", host, pid)
}

// leaseHolder returns the holderIdentity of a Lease ("" when released); found is false
// when the Lease does not exist yet.
func leaseHolder(t testing.TB, ns, name string) (holder string, found bool, err error) {
	t.Helper()
	kube, _ := Clients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lease, err := kube.CoordinationV1().Leases(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if lease.Spec.HolderIdentity == nil {
		return "", true, nil
	}
	return *lease.Spec.HolderIdentity, true, nil
}

// waitLeaseHolder polls the Lease every 100 ms until its holder is want and returns how
// long that took.
func waitLeaseHolder(t testing.TB, ns, name, want string, timeout time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	Eventually(t, timeout, 100*time.Millisecond, fmt.Sprintf("Lease %s/%s held by %q", ns, name, want), func() error {
		holder, found, err := leaseHolder(t, ns, name)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("no Lease yet")
		}
		if holder != want {
			return fmt.Errorf("holderIdentity is %q", holder)
		}
		return nil
	})
	return time.Since(start)
}

// expectStatus fails unless a GET of u answers code.
func expectStatus(u string, code int) error {
	got, body, err := httpGet(u)
	if err != nil {
		return err
	}
	if got != code {
		return fmt.Errorf("GET %s = %d %q, want %d", u, got, strings.TrimSpace(body), code)
	}
	return nil
}

// scrapeMetrics reads and parses a Prometheus text exposition.
func scrapeMetrics(t testing.TB, u string) map[string]*dto.MetricFamily {
	t.Helper()
	code, body, err := httpGet(u)
	if err != nil || code != http.StatusOK {
		t.Fatalf("GET %s: %d %v", u, code, err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parsing %s: %v\n%s", u, err, body)
	}
	return families
}

// ---------------------------------------------------------------- apiserver proxy ----

// apiProxy is a plain-HTTP reverse proxy in front of the real apiserver (TLS and the
// admin credentials are added on the way out). It can hold back the Network informer's
// LIST/WATCH until released, and scope every cluster-wide Network request to one
// namespace, so that the controller behind it sees that namespace only.
type apiProxy struct {
	t        testing.TB
	srv      *httptest.Server
	scopeNS  string
	hold     atomic.Bool
	release  chan struct{}
	released sync.Once

	mu       sync.Mutex
	requests []string
	held     int
}

const networksCollection = "/apis/samplecrd.k8s.io/v1/networks"

// startAPIProxy starts the proxy. With scopeNS set, requests for all Networks go to that
// namespace's Networks instead. With hold set, the informer's requests wait for Release.
func startAPIProxy(t testing.TB, scopeNS string, hold bool) *apiProxy {
	t.Helper()
	cfg := adminConfig(t)
	target, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatalf("parsing apiserver URL %q: %v", cfg.Host, err)
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatalf("apiserver transport: %v", err)
	}
	p := &apiProxy{t: t, scopeNS: scopeNS, release: make(chan struct{})}
	p.hold.Store(hold)
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			if scopeNS != "" && pr.In.URL.Path == networksCollection {
				pr.Out.URL.Path = "/apis/samplecrd.k8s.io/v1/namespaces/" + scopeNS + "/networks"
				pr.Out.URL.RawPath = ""
			}
		},
		Transport: rt,
		// Watches stream: pass every event on at once.
		FlushInterval: -1,
	}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		informer := isInformerRequest(r)
		p.mu.Lock()
		p.requests = append(p.requests, r.Method+" "+r.URL.RequestURI())
		if informer && p.hold.Load() {
			p.held++
		}
		p.mu.Unlock()
		if informer && p.hold.Load() {
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
// watch-list) of all Networks from the controller's startup check, a plain ?limit=1 list.
func isInformerRequest(r *http.Request) bool {
	if r.URL.Path != networksCollection {
		return false
	}
	q := r.URL.Query()
	return q.Has("resourceVersion") || q.Get("watch") == "true" || q.Get("watch") == "1"
}

// Release lets held requests and all later ones through.
func (p *apiProxy) Release() {
	p.released.Do(func() {
		p.hold.Store(false)
		close(p.release)
	})
}

// Held is how many informer requests were held back.
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
clusters:
- name: proxy
  cluster:
    server: %s
users:
- name: proxied
  user: {}
contexts:
- name: proxy
  context:
    cluster: proxy
    user: proxied
current-context: proxy
`, p.srv.URL))
}

// ------------------------------------------------------------------ Neutron proxy ----

// neutronProxy forwards to the real Neutron and can hold back the create-network request
// of Networks in one namespace for a while, to keep a reconcile in flight.
type neutronProxy struct {
	srv     *httptest.Server
	ns      string
	delay   time.Duration
	arrived chan time.Time
	// done receives when a delayed request has been answered by Neutron.
	done chan time.Time
}

func startNeutronProxy(t testing.TB, ns string, delay time.Duration) *neutronProxy {
	t.Helper()
	target, err := url.Parse(NeutronEndpoint)
	if err != nil {
		t.Fatalf("parsing %s: %v", NeutronEndpoint, err)
	}
	p := &neutronProxy{ns: ns, delay: delay, arrived: make(chan time.Time, 16), done: make(chan time.Time, 16)}
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v2.0/networks") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			// The controller names the network k8s_<namespace>_<name>.
			if bytes.Contains(body, []byte(`"k8s_`+ns+`_`)) {
				notify(p.arrived)
				select {
				case <-time.After(p.delay):
				case <-r.Context().Done():
					return
				}
				rp.ServeHTTP(w, r)
				notify(p.done)
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
	return p
}

func notify(ch chan time.Time) {
	select {
	case ch <- time.Now():
	default:
	}
}

// URL is the proxy's endpoint, for -neutron-endpoint.
func (p *neutronProxy) URL() string { return p.srv.URL + "/" }

// ------------------------------------------------------------------ Neutron checks ----

// ownedResources returns the one Neutron network and subnet of owner, or an error saying
// what is missing or doubled.
func ownedResources(t testing.TB, owner neutron.Owner) (neutron.Network, neutron.Subnet, error) {
	t.Helper()
	nets, err := NeutronNetworksOf(t, owner)
	if err != nil {
		return neutron.Network{}, neutron.Subnet{}, err
	}
	subs, err := NeutronSubnetsOf(t, owner)
	if err != nil {
		return neutron.Network{}, neutron.Subnet{}, err
	}
	if len(nets) != 1 || len(subs) != 1 {
		return neutron.Network{}, neutron.Subnet{}, fmt.Errorf("%d networks %v and %d subnets %v for %s",
			len(nets), ids(nets), len(subs), ids(subs), owner.ResourceName())
	}
	return nets[0], subs[0], nil
}

// duplicatesOfCluster lists every owner UID for which Neutron holds more than one network
// of clusterID, and every network with more than one subnet of that cluster.
func duplicatesOfCluster(t testing.TB, clusterID string) []string {
	t.Helper()
	nc := Neutron(t)
	ctx := Ctx(t, 30*time.Second)
	ours := neutron.Filter{Description: neutron.ClusterDescription(clusterID)}
	nets, err := nc.ListNetworks(ctx, ours)
	if err != nil {
		t.Fatalf("listing Neutron networks of cluster %s: %v", clusterID, err)
	}
	subs, err := nc.ListSubnets(ctx, ours)
	if err != nil {
		t.Fatalf("listing Neutron subnets of cluster %s: %v", clusterID, err)
	}
	byOwner := map[string][]string{}
	for _, n := range nets {
		uid, _ := neutron.OwnerUID(n)
		byOwner[uid] = append(byOwner[uid], n.ID)
	}
	byNetwork := map[string][]string{}
	for _, s := range subs {
		byNetwork[s.NetworkID] = append(byNetwork[s.NetworkID], s.ID)
	}
	var dups []string
	for uid, ids := range byOwner {
		if len(ids) > 1 {
			dups = append(dups, fmt.Sprintf("owner uid %s has networks %v", uid, ids))
		}
	}
	for net, ids := range byNetwork {
		if len(ids) > 1 {
			dups = append(dups, fmt.Sprintf("network %s has subnets %v", net, ids))
		}
	}
	sort.Strings(dups)
	return dups
}

// --------------------------------------------------------------------------- logs ----

// jsonLogProblems returns the lines of log that are not one JSON object each with time,
// level and msg, as slog's JSON handler writes them.
func jsonLogProblems(log string) (lines int, problems []string) {
	for i, line := range strings.Split(log, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines++
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			problems = append(problems, fmt.Sprintf("line %d is not JSON (%v): %s", i+1, err, line))
			continue
		}
		for _, k := range []string{"time", "level", "msg"} {
			if _, ok := obj[k]; !ok {
				problems = append(problems, fmt.Sprintf("line %d has no %q: %s", i+1, k, line))
			}
		}
	}
	return lines, problems
}

// jsonLogHas reports whether some JSON log line has msg and, for each key=value pair in
// kv, that value (compared as text).
func jsonLogHas(log, msg string, kv ...string) bool {
	for _, line := range strings.Split(log, "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) != nil || obj["msg"] != msg {
			continue
		}
		ok := true
		for _, pair := range kv {
			k, v, _ := strings.Cut(pair, "=")
			if fmt.Sprint(obj[k]) != v {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// ------------------------------------------------------------------------ kubectl ----

// kubectlSplit runs kubectl with the given kubeconfig (the admin one when empty) and
// returns stdout and stderr apart, so that warnings do not mix with -o json.
func kubectlSplit(t testing.TB, kubeconfig string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	if kubeconfig == "" {
		kubeconfig = Kubeconfig
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...)
	cmd.Dir = RepoRoot
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	t.Logf("kubectl %s: err=%v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err,
		LastLines(strings.TrimSpace(o.String()), 20), strings.TrimSpace(e.String()))
	return o.String(), e.String(), err
}

// ----------------------------------------------------------------------- startup ----

// startupDone waits until a controller's log says it connected ("Connected", text or
// JSON); an exit before that fails the test.
func startupDone(t testing.TB, logs func() string, exited func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		l := logs()
		if strings.Contains(l, `"Connected"`) {
			return
		}
		if exited() {
			t.Fatalf("controller exited during startup:\n%s", LastLines(l, 40))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("controller did not connect within 60s:\n%s", LastLines(logs(), 40))
}

// startConnectedController is StartController that returns once the controller is connected
// to the apiserver and Neutron.
func startConnectedController(t testing.TB, opts ControllerOptions) *Controller {
	t.Helper()
	c := StartController(t, opts)
	startupDone(t, c.Logs, func() bool { _, err := c.Wait(10 * time.Millisecond); return err == nil })
	return c
}
