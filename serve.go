package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/metrics"
)

// serveEndpoints starts the metrics and probe servers the flags ask for. Listening happens
// here, so a taken port is a startup error, not a log line later.
func serveEndpoints(ctx context.Context, opts options, m *metrics.Metrics, p *probes) error {
	metricsMux := http.NewServeMux()
	metricsMux.Handle("/metrics", promhttp.HandlerFor(m.Registry(), promhttp.HandlerOpts{}))
	if err := serve(ctx, "metrics", opts.metricsBindAddress, metricsMux); err != nil {
		return err
	}
	probeMux := http.NewServeMux()
	probeMux.Handle("/healthz", probeHandler(p.healthz))
	probeMux.Handle("/readyz", probeHandler(p.readyz))
	return serve(ctx, "health probe", opts.healthProbeAddress, probeMux)
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
