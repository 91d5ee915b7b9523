package endpoints

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
