package metrics

import (
	"context"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	clientmetrics "k8s.io/client-go/tools/metrics"
)

// restClientSeries are client-go's REST client metrics (every request to the apiserver),
// with the names, labels and buckets Kubernetes' own components export, so that
// dashboards made for those work here. Labels are the verb, the apiserver's host and the
// status code: never a URL's path, which names objects.
type restClientSeries struct {
	requestDuration *prometheus.HistogramVec
	rateLimiterWait *prometheus.HistogramVec
	requests        *prometheus.CounterVec
	retries         *prometheus.CounterVec
	requestSize     *prometheus.HistogramVec
	responseSize    *prometheus.HistogramVec
}

func newRESTClientSeries() *restClientSeries {
	latencyBuckets := []float64{0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60}
	sizeBuckets := []float64{64, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216}
	verbHost := []string{"verb", "host"}
	return &restClientSeries{
		requestDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "rest_client_request_duration_seconds",
			Help: "Latency of requests to the Kubernetes API, by verb and host.", Buckets: latencyBuckets}, verbHost),
		rateLimiterWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "rest_client_rate_limiter_duration_seconds",
			Help: "Time requests to the Kubernetes API waited for the client-side rate limiter, by verb and host.", Buckets: latencyBuckets}, verbHost),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rest_client_requests_total",
			Help: "Requests to the Kubernetes API, by status code, method and host."}, []string{"code", "method", "host"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rest_client_request_retries_total",
			Help: "Requests to the Kubernetes API sent again, by the status code of the previous attempt, verb and host."}, []string{"code", "verb", "host"}),
		requestSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "rest_client_request_size_bytes",
			Help: "Size of the bodies of requests to the Kubernetes API, by verb and host.", Buckets: sizeBuckets}, verbHost),
		responseSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "rest_client_response_size_bytes",
			Help: "Size of the bodies of the Kubernetes API's responses, by verb and host.", Buckets: sizeBuckets}, verbHost),
	}
}

func (s *restClientSeries) mustRegister(r *prometheus.Registry) {
	r.MustRegister(s.requestDuration, s.rateLimiterWait, s.requests, s.retries, s.requestSize, s.responseSize)
}

// RESTClientMetrics is what main hands to client-go's metrics.Register. client-go keeps
// only the first registration of a process, so it is made once, in main.
func (m *Metrics) RESTClientMetrics() clientmetrics.RegisterOpts {
	s := m.restClient
	return clientmetrics.RegisterOpts{
		RequestLatency:     latencyByHost{s.requestDuration},
		RateLimiterLatency: latencyByHost{s.rateLimiterWait},
		RequestResult:      resultCounter{s.requests},
		RequestRetry:       retryCounter{s.retries},
		RequestSize:        sizeByHost{s.requestSize},
		ResponseSize:       sizeByHost{s.responseSize},
	}
}

// latencyByHost observes a latency by verb and host: client-go passes the request's URL,
// of which only the host is kept.
type latencyByHost struct{ m *prometheus.HistogramVec }

func (l latencyByHost) Observe(_ context.Context, verb string, u url.URL, latency time.Duration) {
	l.m.WithLabelValues(verb, u.Host).Observe(latency.Seconds())
}

type resultCounter struct{ m *prometheus.CounterVec }

func (r resultCounter) Increment(_ context.Context, code, method, host string) {
	r.m.WithLabelValues(code, method, host).Inc()
}

type retryCounter struct{ m *prometheus.CounterVec }

func (r retryCounter) IncrementRetry(_ context.Context, code, verb, host string) {
	r.m.WithLabelValues(code, verb, host).Inc()
}

type sizeByHost struct{ m *prometheus.HistogramVec }

func (s sizeByHost) Observe(_ context.Context, verb, host string, size float64) {
	s.m.WithLabelValues(verb, host).Observe(size)
}
