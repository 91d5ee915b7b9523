// Package endpoints serves what the process offers over HTTP: Prometheus metrics, the
// liveness and readiness probes, and, when asked for, Go's profiles.
package endpoints

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/klog/v2"
)

// Serve starts the metrics server on metricsAddress and the probe server on
// probeAddress; an empty address or "0" leaves that server off. Listening happens here,
// so a taken port is a startup error, not a log line later. Both stop when ctx ends.
func Serve(ctx context.Context, metricsAddress string, registry *prometheus.Registry, probeAddress string, p *Probes) error {
	metricsMux := http.NewServeMux()
	metricsMux.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	if err := serve(ctx, "metrics", metricsAddress, metricsMux); err != nil {
		return err
	}
	probeMux := http.NewServeMux()
	probeMux.Handle("/healthz", probeHandler(p.healthz))
	probeMux.Handle("/readyz", probeHandler(p.readyz))
	return serve(ctx, "health probe", probeAddress, probeMux)
}

// ServeProfiling serves Go's runtime profiles (net/http/pprof) under /debug/pprof/ on
// address; empty or "0" leaves it off. They show memory and goroutines, so the address
// should be loopback or reachable only by whoever may see the process's internals.
func ServeProfiling(ctx context.Context, address string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return serve(ctx, "profiling", address, mux)
}

func serve(ctx context.Context, what, address string, handler http.Handler) error {
	if address == "" || address == "0" {
		return nil
	}
	listener, err := net.Listen("tcp", address)
	if err != nil {
		return fmt.Errorf("listening for %s on %s: %w", what, address, err)
	}
	server := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
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
	logger.Info("Serving", "server", what, "address", listener.Addr().String())
	return nil
}
