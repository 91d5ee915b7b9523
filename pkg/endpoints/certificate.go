package endpoints

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	certutil "k8s.io/client-go/util/cert"
	"k8s.io/klog/v2"
)

// The file names of a kubernetes.io/tls Secret, which cert-manager writes too.
const (
	certFileName = "tls.crt"
	keyFileName  = "tls.key"
)

// certRecheckPeriod is how often the key pair's files are looked at for a renewal: the
// kubelet replaces a mounted Secret's files within about a minute of the Secret changing.
const certRecheckPeriod = 10 * time.Second

// serverTLSConfig returns the TLS settings of the metrics server: the key pair in certDir,
// read again when its files change, or, with certDir empty, a self-signed one made now.
// HTTP/2 is not offered: a scrape does not need it, and it has had denial-of-service flaws.
func serverTLSConfig(ctx context.Context, certDir string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
	if certDir == "" {
		cert, err := selfSignedCertificate()
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{cert}
		return cfg, nil
	}
	files := &certFiles{
		cert: filepath.Join(certDir, certFileName), key: filepath.Join(certDir, keyFileName),
		logger: klog.FromContext(ctx),
	}
	if err := files.load(); err != nil {
		return nil, err
	}
	cfg.GetCertificate = files.current
	return cfg, nil
}

// selfSignedCertificate makes a key pair for this host's name, localhost and 127.0.0.1,
// signed by a CA made for it alone. Scrapers then skip verification (or trust it on first
// use); give -metrics-cert-dir to have a certificate they can verify.
func selfSignedCertificate() (tls.Certificate, error) {
	host, err := os.Hostname()
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("reading the hostname for the metrics certificate: %w", err)
	}
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey(host, []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}, []string{"localhost"})
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("making a self-signed metrics certificate: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("reading the self-signed metrics certificate: %w", err)
	}
	return cert, nil
}

// certFiles is a key pair read from files and read again when they change.
type certFiles struct {
	cert, key string
	logger    klog.Logger

	mu        sync.Mutex
	pair      *tls.Certificate
	stamp     string
	checkedAt time.Time
}

// load reads the key pair, failing when it is missing or unreadable.
func (f *certFiles) load() error {
	stamp, err := f.fileStamp()
	if err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(f.cert, f.key)
	if err != nil {
		return fmt.Errorf("loading the metrics certificate: %w", err)
	}
	f.pair, f.stamp, f.checkedAt = &cert, stamp, time.Now()
	return nil
}

// current is tls.Config.GetCertificate: the last good key pair, read again first when the
// files changed. A renewal that cannot be read keeps the old pair and is logged.
func (f *certFiles) current(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if time.Since(f.checkedAt) < certRecheckPeriod {
		return f.pair, nil
	}
	f.checkedAt = time.Now()
	if stamp, err := f.fileStamp(); err == nil && stamp == f.stamp {
		return f.pair, nil
	}
	if err := f.load(); err != nil {
		f.logger.Error(err, "Keeping the previous metrics certificate", "cert", f.cert, "key", f.key)
		return f.pair, nil
	}
	f.logger.Info("Loaded a renewed metrics certificate", "cert", f.cert)
	return f.pair, nil
}

// fileStamp identifies the files' versions by size and modification time.
func (f *certFiles) fileStamp() (string, error) {
	var stamp string
	for _, p := range []string{f.cert, f.key} {
		info, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("reading the metrics certificate: %w", err)
		}
		stamp += fmt.Sprintf("%d/%d;", info.Size(), info.ModTime().UnixNano())
	}
	return stamp, nil
}
