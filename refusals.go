package main

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/lockoutrecord"
	"github.com/samplecrd/network-controller/pkg/startup"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// keepRefusals makes the gate keep its counts of refused token requests in the
// -keystone-refusals-configmap ConfigMap. It returns what reads them back, to run when
// the process starts leading; until it has, the gate sends no counted request.
func keepRefusals(ctx context.Context, opts options, kubeClient kubernetes.Interface, gate *tenancy.AuthGate) func(context.Context) {
	if opts.refusalsConfigMap == "" {
		return func(context.Context) {}
	}
	record := lockoutrecord.New(kubeClient.CoreV1().ConfigMaps(opts.leaseNamespace), opts.refusalsConfigMap, fieldManager,
		map[string]string{"app.kubernetes.io/name": "network-controller", "app.kubernetes.io/component": "keystone-refusals"})
	where := fmt.Sprintf("ConfigMap %s/%s", opts.leaseNamespace, opts.refusalsConfigMap)
	gate.KeepRefusalsIn(record, where, func(err error) {
		utilruntime.HandleErrorWithContext(ctx, err, "Keeping counts of refused token requests")
	})
	return func(ctx context.Context) {
		logger := klog.FromContext(ctx)
		var entries map[string]string
		err := startup.DefaultRetry.WaitFor(ctx, where, func(ctx context.Context) (err error) {
			entries, err = record.Load(ctx)
			return err
		})
		if err != nil {
			utilruntime.HandleErrorWithContext(ctx, err, "Reading counts of refused token requests", "configMap", where)
			return
		}
		skipped := gate.Restore(entries)
		logger.Info("Read counts of refused token requests", "configMap", where, "users", len(entries)-skipped, "skipped", skipped)
	}
}
