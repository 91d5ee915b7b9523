package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/klog/v2"
)

// signalContext returns a context cancelled by the first SIGINT or SIGTERM, which starts
// a graceful shutdown; a second signal exits at once.
func signalContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	ctx = klog.NewContext(ctx, klog.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-signals
		klog.FromContext(ctx).Info("Shutting down; send the signal again to exit at once", "signal", sig.String())
		cancel()
		<-signals
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}()
	return ctx
}
