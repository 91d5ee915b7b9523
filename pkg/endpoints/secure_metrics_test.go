package endpoints

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/klog/v2/ktesting"
)

// The pieces ServeMetrics puts together, over real HTTPS: the access filter in front of
// the registry, with the TLS settings of serverTLSConfig.
func TestSecureMetricsOverHTTPS(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	kube, api := newFakeAPIServer()
	registry := prometheus.NewRegistry()
	scrapes := prometheus.NewCounter(prometheus.CounterOpts{Name: "endpoints_test_scrapes_total", Help: "Scrapes seen by the test."})
	registry.MustRegister(scrapes)
	scrapes.Add(3)

	cfg, err := serverTLSConfig(ctx, "")
	if err != nil {
		t.Fatalf("serverTLSConfig: %v", err)
	}
	// Record what the clients offer; returning nil keeps cfg as it is.
	var mu sync.Mutex
	var offered [][]string
	cfg.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		mu.Lock()
		defer mu.Unlock()
		offered = append(offered, slices.Clone(hello.SupportedProtos))
		return nil, nil
	}
	srv := httptest.NewUnstartedServer(newAccessFilter(kube).wrap(promhttp.HandlerFor(registry, promhttp.HandlerOpts{})))
	srv.TLS = cfg
	srv.StartTLS()
	defer srv.Close()

	transport := &http.Transport{
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // the certificate is self-signed
		ForceAttemptHTTP2: true,
	}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}

	get := func(token string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/metrics", nil)
		if err != nil {
			t.Fatalf("making the request: %v", err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET /metrics: %v", err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("reading the body: %v", err)
		}
		return resp, string(body)
	}

	resp, body := get("")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a token: status %d, want %d (body %q)", resp.StatusCode, http.StatusUnauthorized, body)
	}
	if strings.Contains(body, "endpoints_test_scrapes_total") {
		t.Errorf("without a token: the body shows the metrics")
	}

	resp, body = get(deniedToken)
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("denied token: status %d, want %d (body %q)", resp.StatusCode, http.StatusForbidden, body)
	}

	resp, body = get(allowedToken)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("allowed token: status %d, want %d (body %q)", resp.StatusCode, http.StatusOK, body)
	}
	if !strings.Contains(body, "endpoints_test_scrapes_total 3") {
		t.Errorf("allowed token: body does not hold the registry's series:\n%s", body)
	}
	expectReviews(t, api, 2, 2)

	if resp.TLS == nil {
		t.Fatalf("response not over TLS")
	}
	if resp.Proto != "HTTP/1.1" || resp.TLS.NegotiatedProtocol != "http/1.1" {
		t.Errorf("protocol %s, negotiated %q; want HTTP/1.1 and http/1.1", resp.Proto, resp.TLS.NegotiatedProtocol)
	}
	mu.Lock()
	if len(offered) == 0 || !slices.Contains(offered[0], "h2") {
		t.Errorf("the client offered %q, not h2: the protocol check proves nothing", offered)
	}
	mu.Unlock()
	if len(resp.TLS.PeerCertificates) == 0 || !bytes.Equal(resp.TLS.PeerCertificates[0].Raw, cfg.Certificates[0].Certificate[0]) {
		t.Errorf("the server did not present the certificate of serverTLSConfig")
	}

	// A client that trusts the certificate's own CA verifies the server at 127.0.0.1.
	if len(cfg.Certificates[0].Certificate) < 2 {
		t.Fatalf("the self-signed certificate comes without its CA")
	}
	ca, err := x509.ParseCertificate(cfg.Certificates[0].Certificate[1])
	if err != nil {
		t.Fatalf("parsing the CA: %v", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	verifying := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	defer verifying.CloseIdleConnections()
	client = &http.Client{Transport: verifying, Timeout: 30 * time.Second}
	if resp, body := get(allowedToken); resp.StatusCode != http.StatusOK {
		t.Errorf("verifying client: status %d, want %d (body %q)", resp.StatusCode, http.StatusOK, body)
	}

	// TLS older than 1.2 is refused. The client must allow the old versions itself: by
	// default Go's client offers nothing older than 1.2.
	old := &http.Transport{TLSClientConfig: &tls.Config{ //nolint:gosec // testing the refusal
		InsecureSkipVerify: true, MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11,
	}}
	defer old.CloseIdleConnections()
	if resp, err := (&http.Client{Transport: old, Timeout: 30 * time.Second}).Get(srv.URL + "/metrics"); err == nil {
		resp.Body.Close()
		t.Errorf("a TLS 1.1 client was served")
	}
}
