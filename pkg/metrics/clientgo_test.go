package metrics

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	clientmetrics "k8s.io/client-go/tools/metrics"
)

// Once client-go is handed the series (once per process, as main does), a request through
// a client-go REST client shows in the registry by verb, host and code, and a leader
// election in leader_election_master_status. No label holds a URL's path or a name.
func TestClientGoSeriesShowRequestsAndLeadership(t *testing.T) {
	m := New()
	clientmetrics.Register(m.RESTClientMetrics())
	leaderelection.SetProvider(m.LeaderElectionProvider())

	apiserver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team-a"}}`)
	}))
	defer apiserver.Close()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: apiserver.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Namespaces().Get(t.Context(), "team-a", metav1.GetOptions{}); err != nil {
		t.Fatalf("GET through the REST client: %v", err)
	}
	host := strings.TrimPrefix(apiserver.URL, "http://")

	families := gather(t, m)
	for _, c := range []struct {
		family string
		labels map[string]string
	}{
		{"rest_client_requests_total", map[string]string{"code": "200", "method": "GET", "host": host}},
		{"rest_client_request_duration_seconds", map[string]string{"verb": "GET", "host": host}},
		{"rest_client_rate_limiter_duration_seconds", map[string]string{"verb": "GET", "host": host}},
		{"rest_client_response_size_bytes", map[string]string{"verb": "GET", "host": host}},
	} {
		metric := find(families, c.family, c.labels)
		if metric == nil {
			t.Errorf("no %s%v; the registry has %v", c.family, c.labels, families[c.family])
			continue
		}
		if n := metric.GetCounter().GetValue() + float64(metric.GetHistogram().GetSampleCount()); n != 1 {
			t.Errorf("%s%v = %v, want 1 request", c.family, c.labels, n)
		}
	}
	for name, family := range families {
		for _, metric := range family.GetMetric() {
			for _, label := range metric.GetLabel() {
				if strings.Contains(label.GetValue(), "/") || strings.Contains(label.GetValue(), "team-a") {
					t.Errorf("%s has label %s=%q: a path or a name", name, label.GetName(), label.GetValue())
				}
			}
		}
	}

	// A leader election through client-go, on a fake API.
	kube := fake.NewClientset()
	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, "network-controller", "network-controller",
		kube.CoreV1(), kube.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: "replica-a"})
	if err != nil {
		t.Fatal(err)
	}
	leading := make(chan struct{})
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: lock, Name: "network-controller",
		LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { close(leading) },
			OnStoppedLeading: func() {},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	status := func() float64 {
		metric := find(gather(t, m), "leader_election_master_status", map[string]string{"name": "network-controller"})
		if metric == nil {
			t.Fatal("no leader_election_master_status{name=network-controller}")
		}
		return metric.GetGauge().GetValue()
	}
	if v := status(); v != 0 {
		t.Errorf("leader_election_master_status before the election = %v, want 0", v)
	}
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); elector.Run(ctx) }()
	<-leading
	if v := status(); v != 1 {
		t.Errorf("leader_election_master_status while leading = %v, want 1", v)
	}
	// client-go leaves the status at 1 when the election's context ends between two
	// renewals: the process exits then.
	stop()
	<-done
}

func gather(t *testing.T, m *Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	list, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	families := map[string]*dto.MetricFamily{}
	for _, f := range list {
		families[f.GetName()] = f
	}
	return families
}

// find returns the series of family with exactly labels, or nil.
func find(families map[string]*dto.MetricFamily, family string, labels map[string]string) *dto.Metric {
next:
	for _, metric := range families[family].GetMetric() {
		if len(metric.GetLabel()) != len(labels) {
			continue
		}
		for _, label := range metric.GetLabel() {
			if labels[label.GetName()] != label.GetValue() {
				continue next
			}
		}
		return metric
	}
	return nil
}
