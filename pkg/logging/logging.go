// Package logging sets up klog: text or JSON, and quiet about client-go's feature gates.
package logging

import (
	"flag"
	"os"
	"strconv"
	"strings"

	"github.com/go-logr/logr"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/klog/v2"
)

// Setup switches klog to one JSON object per line when asked, in the format of
// Kubernetes' own components (kubeJSONHandler); text is klog's own. JSON goes through
// the standard library's slog, so it needs no logging dependency.
func Setup(format string) error {
	if format != "json" {
		return nil
	}
	verbosity := 0
	if f := flag.Lookup("v"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil {
			verbosity = v
		}
	}
	klog.SetLogger(logr.FromSlogHandler(newKubeJSONHandler(os.Stderr, verbosity)))
	return nil
}

// ReadClientFeatureGates makes client-go read its feature gates (KUBE_FEATURE_*
// variables) now, before the flags raise klog's verbosity: on its first read client-go
// logs the default state of every gate it knows at V(1), lines about client-go rather
// than this controller. Gates set in the environment still apply and are logged by
// LogClientFeatureGates.
func ReadClientFeatureGates() {
	clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient)
}

// LogClientFeatureGates logs the client-go feature gates set through the environment.
func LogClientFeatureGates(logger klog.Logger) {
	for _, kv := range os.Environ() {
		if name, value, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(name, "KUBE_FEATURE_") {
			logger.Info("client-go feature gate set in the environment", "variable", name, "value", value)
		}
	}
}
