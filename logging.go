package main

import (
	"flag"
	"log/slog"
	"os"
	"strconv"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// setupLogging switches klog to one JSON object per line when asked; text is klog's own.
// JSON goes through the standard library's slog, so it needs no logging dependency.
func setupLogging(format string) error {
	if format != "json" {
		return nil
	}
	verbosity := 0
	if f := flag.Lookup("v"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil {
			verbosity = v
		}
	}
	// logr's V(n) maps to slog level -n.
	handler := slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.Level(-verbosity)})
	klog.SetLogger(logr.FromSlogHandler(handler))
	return nil
}
