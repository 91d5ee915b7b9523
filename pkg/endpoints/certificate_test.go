package endpoints

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	certutil "k8s.io/client-go/util/cert"
	"k8s.io/klog/v2/ktesting"
)

// leaf parses the first certificate of a key pair.
func leaf(t *testing.T, pair *tls.Certificate) *x509.Certificate {
	t.Helper()
	if pair == nil || len(pair.Certificate) == 0 {
		t.Fatalf("no certificate in the key pair")
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		t.Fatalf("parsing the certificate: %v", err)
	}
	return cert
}

func TestServerTLSConfigSelfSigned(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	cfg, err := serverTLSConfig(ctx, "")
	if err != nil {
		t.Fatalf("serverTLSConfig: %v", err)
	}
	if cfg.MinVersion != tls.VersionTLS12 {
		t.Errorf("MinVersion %x, want TLS 1.2 (%x)", cfg.MinVersion, tls.VersionTLS12)
	}
	if !slices.Equal(cfg.NextProtos, []string{"http/1.1"}) {
		t.Errorf("NextProtos %q, want only http/1.1", cfg.NextProtos)
	}
	if len(cfg.Certificates) != 1 {
		t.Fatalf("%d certificates, want 1", len(cfg.Certificates))
	}
	cert := leaf(t, &cfg.Certificates[0])
	for _, host := range []string{"127.0.0.1", "localhost", "::1"} {
		if err := cert.VerifyHostname(host); err != nil {
			t.Errorf("certificate not valid for %s: %v", host, err)
		}
	}
	if err := cert.VerifyHostname("metrics.example.invalid"); err == nil {
		t.Errorf("certificate valid for metrics.example.invalid, a name it was not made for")
	}
	if now := time.Now(); now.Before(cert.NotBefore) || now.After(cert.NotAfter) {
		t.Errorf("certificate valid from %v to %v, not now", cert.NotBefore, cert.NotAfter)
	}
	if hostname, err := os.Hostname(); err == nil {
		if err := cert.VerifyHostname(hostname); err != nil {
			t.Errorf("certificate not valid for this host's name %q: %v", hostname, err)
		}
	}

	// A second call makes another key pair.
	other, err := serverTLSConfig(ctx, "")
	if err != nil {
		t.Fatalf("serverTLSConfig: %v", err)
	}
	if bytes.Equal(other.Certificates[0].Certificate[0], cfg.Certificates[0].Certificate[0]) {
		t.Errorf("two calls gave the same certificate")
	}
}

// keyPair is a certificate and key in PEM, made for host.
type keyPair struct {
	host      string
	cert, key []byte
}

func newKeyPair(t *testing.T, host string) keyPair {
	t.Helper()
	cert, key, err := certutil.GenerateSelfSignedCertKey(host, nil, nil)
	if err != nil {
		t.Fatalf("generating a key pair for %s: %v", host, err)
	}
	return keyPair{host: host, cert: cert, key: key}
}

// write replaces the files in dir with the pair, and gives them a modification time
// unlike any before so that the change shows however coarse the file system's clock.
func (p keyPair) write(t *testing.T, dir string, mtime time.Time) {
	t.Helper()
	writeFile(t, filepath.Join(dir, certFileName), p.cert, mtime)
	writeFile(t, filepath.Join(dir, keyFileName), p.key, mtime)
}

func writeFile(t *testing.T, path string, content []byte, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatalf("setting the time of %s: %v", path, err)
	}
}

// servedHost returns the host the certificate GetCertificate serves was made for.
func servedHost(t *testing.T, getCertificate func(*tls.ClientHelloInfo) (*tls.Certificate, error)) string {
	t.Helper()
	pair, err := getCertificate(&tls.ClientHelloInfo{ServerName: "localhost"})
	if err != nil {
		t.Fatalf("GetCertificate: %v", err)
	}
	cert := leaf(t, pair)
	if len(cert.DNSNames) == 0 {
		return ""
	}
	return cert.DNSNames[0]
}

// filesOf builds the certFiles serverTLSConfig builds, for a test to move checkedAt.
func filesOf(t *testing.T, dir string) *certFiles {
	t.Helper()
	logger, _ := ktesting.NewTestContext(t)
	files := &certFiles{cert: filepath.Join(dir, certFileName), key: filepath.Join(dir, keyFileName), logger: logger}
	if err := files.load(); err != nil {
		t.Fatalf("load: %v", err)
	}
	return files
}

func (f *certFiles) moveCheckBack(by time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checkedAt = f.checkedAt.Add(-by)
}

func TestServerTLSConfigFromFolder(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	dir := t.TempDir()
	first := newKeyPair(t, "first.metrics.example")
	first.write(t, dir, time.Now().Add(-time.Hour))

	cfg, err := serverTLSConfig(ctx, dir)
	if err != nil {
		t.Fatalf("serverTLSConfig: %v", err)
	}
	if len(cfg.Certificates) != 0 {
		t.Errorf("%d fixed certificates, want none: the files' pair comes from GetCertificate", len(cfg.Certificates))
	}
	if cfg.GetCertificate == nil {
		t.Fatalf("no GetCertificate")
	}
	if !slices.Equal(cfg.NextProtos, []string{"http/1.1"}) || cfg.MinVersion != tls.VersionTLS12 {
		t.Errorf("NextProtos %q and MinVersion %x, want [http/1.1] and TLS 1.2", cfg.NextProtos, cfg.MinVersion)
	}
	if got := servedHost(t, cfg.GetCertificate); got != first.host {
		t.Errorf("serves the certificate of %q, want %q", got, first.host)
	}
}

func TestCertFilesReload(t *testing.T) {
	dir := t.TempDir()
	first := newKeyPair(t, "first.metrics.example")
	second := newKeyPair(t, "second.metrics.example")
	mtime := time.Now().Add(-time.Hour)
	nextMtime := func() time.Time { mtime = mtime.Add(time.Minute); return mtime }
	first.write(t, dir, nextMtime())
	files := filesOf(t, dir)
	past := certRecheckPeriod + time.Second

	steps := []struct {
		name string
		// change is made to the files before asking for the certificate.
		change func()
		// moveBack moves the last check back past certRecheckPeriod.
		moveBack bool
		want     string
	}{
		{name: "first pair", change: func() {}, want: first.host},
		{
			name:     "replaced by the second pair, after the recheck period",
			change:   func() { second.write(t, dir, nextMtime()) },
			moveBack: true,
			want:     second.host,
		},
		{
			name: "garbage certificate keeps the second pair",
			change: func() {
				writeFile(t, filepath.Join(dir, certFileName), []byte("not a certificate\n"), nextMtime())
			},
			moveBack: true,
			want:     second.host,
		},
		{
			name:   "replaced by the first pair within the recheck period: not looked at",
			change: func() { first.write(t, dir, nextMtime()) },
			want:   second.host,
		},
		{
			name:     "the same files once the recheck period passed",
			change:   func() {},
			moveBack: true,
			want:     first.host,
		},
		{
			name:     "removed files keep the first pair",
			change:   func() { _ = os.Remove(filepath.Join(dir, keyFileName)) },
			moveBack: true,
			want:     first.host,
		},
		{
			name:     "files back",
			change:   func() { second.write(t, dir, nextMtime()) },
			moveBack: true,
			want:     second.host,
		},
	}
	for _, step := range steps {
		step.change()
		if step.moveBack {
			files.moveCheckBack(past)
		}
		if got := servedHost(t, files.current); got != step.want {
			t.Errorf("%s: serves the certificate of %q, want %q", step.name, got, step.want)
		}
	}
}

// Within certRecheckPeriod of the last check the files are not looked at, even when they
// are gone.
func TestCertFilesNotLookedAtWithinRecheckPeriod(t *testing.T) {
	dir := t.TempDir()
	first := newKeyPair(t, "first.metrics.example")
	second := newKeyPair(t, "second.metrics.example")
	first.write(t, dir, time.Now().Add(-time.Hour))
	files := filesOf(t, dir)

	second.write(t, dir, time.Now().Add(-time.Minute))
	files.moveCheckBack(certRecheckPeriod - 5*time.Second)
	if got := servedHost(t, files.current); got != first.host {
		t.Errorf("within the recheck period: serves %q, want the old %q", got, first.host)
	}
	files.moveCheckBack(10 * time.Second)
	if got := servedHost(t, files.current); got != second.host {
		t.Errorf("past the recheck period: serves %q, want the new %q", got, second.host)
	}
}

func TestServerTLSConfigMissingFiles(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	pair := newKeyPair(t, "metrics.example")
	cases := []struct {
		name    string
		files   map[string][]byte
		missing string
	}{
		{name: "empty folder", files: map[string][]byte{}, missing: certFileName},
		{name: "no key", files: map[string][]byte{certFileName: pair.cert}, missing: keyFileName},
		{name: "no certificate", files: map[string][]byte{keyFileName: pair.key}, missing: certFileName},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				writeFile(t, filepath.Join(dir, name), content, time.Now())
			}
			cfg, err := serverTLSConfig(ctx, dir)
			if err == nil {
				t.Fatalf("serverTLSConfig = %v, nil; want an error", cfg)
			}
			if want := filepath.Join(dir, tc.missing); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %s", err, want)
			}
		})
	}

	t.Run("unparsable certificate", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, certFileName), []byte("garbage"), time.Now())
		writeFile(t, filepath.Join(dir, keyFileName), pair.key, time.Now())
		if _, err := serverTLSConfig(ctx, dir); err == nil {
			t.Errorf("serverTLSConfig accepted a garbage certificate")
		}
	})
}

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
