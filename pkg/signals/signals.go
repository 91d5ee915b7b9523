// Package signals turns SIGINT and SIGTERM into the cancellation of a context.
package signals

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/klog/v2"
)

// Context returns a context cancelled by the first SIGINT or SIGTERM, which starts a
// graceful shutdown; a second signal exits at once. The context carries klog's logger.
func Context() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	ctx = klog.NewContext(ctx, klog.Background())
	received := make(chan os.Signal, 2)
	signal.Notify(received, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-received
		klog.FromContext(ctx).Info("Shutting down; send the signal again to exit at once", "signal", sig.String())
		cancel()
		<-received
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}()
	return ctx
}
