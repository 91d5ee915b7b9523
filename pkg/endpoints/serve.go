// Package endpoints serves what the process offers over HTTP: Prometheus metrics, the
// liveness and readiness probes, and, when asked for, Go's profiles.
package endpoints

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// SecureMetrics makes the metrics server answer HTTPS, and only to callers the
// apiserver authenticates and allows to get /metrics.
type SecureMetrics struct {
	// CertDir holds tls.crt and tls.key; empty: a self-signed certificate made at start.
	CertDir string
	// Kube reviews callers' tokens and rights, as the controller's own identity.
	Kube kubernetes.Interface
}

// ServeMetrics serves registry at /metrics on address, over HTTPS to authorized callers
// only when secure is given; an empty address or "0" leaves it off. Listening happens
// here, so a taken port is a startup error, not a log line later. It stops when ctx ends.
func ServeMetrics(ctx context.Context, address string, registry *prometheus.Registry, secure *SecureMetrics) error {
	var handler http.Handler = promhttp.HandlerFor(registry, promhttp.HandlerOpts{})
	var tlsConfig *tls.Config
	if secure != nil && address != "" && address != "0" {
		var err error
		if tlsConfig, err = serverTLSConfig(ctx, secure.CertDir); err != nil {
			return err
		}
		handler = newAccessFilter(secure.Kube).wrap(handler)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	return serve(ctx, "metrics", address, mux, tlsConfig)
}

// ServeProbes serves /healthz and /readyz on address; empty or "0" leaves it off.
func ServeProbes(ctx context.Context, address string, p *Probes) error {
	mux := http.NewServeMux()
	mux.Handle("/healthz", probeHandler(p.healthz))
	mux.Handle("/readyz", probeHandler(p.readyz))
	return serve(ctx, "health probe", address, mux, nil)
}

// ServeProfiling serves Go's runtime profiles (net/http/pprof) under /debug/pprof/ on
// address; empty or "0" leaves it off. They show memory and goroutines, so the address
// should be loopback or reachable only by whoever may see the process's internals.
func ServeProfiling(ctx context.Context, address string) error {
	return serve(ctx, "profiling", address, profilingHandler(), nil)
}

// profilingHandler routes /debug/pprof/ to net/http/pprof.
func profilingHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// serve serves handler on address, over TLS when tlsConfig is given, with the limits of
// newServer.
func serve(ctx context.Context, what, address string, handler http.Handler, tlsConfig *tls.Config) error {
	if address == "" || address == "0" {
		return nil
	}
	listener, err := net.Listen("tcp", address)
	if err != nil {
		return fmt.Errorf("listening for %s on %s: %w", what, address, err)
	}
	scheme := "http"
	if tlsConfig != nil {
		listener, scheme = tls.NewListener(listener, tlsConfig), "https"
	}
	server := newServer(handler)
	logger := klog.FromContext(ctx)
	go func() {
		if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error(err, "Server stopped", "server", what)
		}
	}()
	context.AfterFunc(ctx, func() {
		shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdownCtx)
	})
	logger.Info("Serving", "server", what, "address", listener.Addr().String(), "scheme", scheme)
	return nil
}
