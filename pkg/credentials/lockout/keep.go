package lockout

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/startup"
)

// KeepInConfigMap makes the gate keep its counts of refused token requests in the
// ConfigMap namespace/name (written as fieldManager), shared with every controller of the
// cluster: each counted request reads it and writes what it decided on the version read.
// It returns what reads it once when the process starts leading, to log what it holds.
// An empty name keeps the counts in memory only, and returns a func that does nothing.
func (g *Gate) KeepInConfigMap(ctx context.Context, kubeClient kubernetes.Interface, namespace, name, fieldManager string) func(context.Context) {
	if name == "" {
		return func(context.Context) {}
	}
	record := NewConfigMap(kubeClient.CoreV1().ConfigMaps(namespace), name, fieldManager,
		map[string]string{"app.kubernetes.io/name": "network-controller", "app.kubernetes.io/component": "keystone-refusals"})
	where := fmt.Sprintf("ConfigMap %s/%s", namespace, name)
	g.KeepRecordIn(record, where, func(err error) {
		utilruntime.HandleErrorWithContext(ctx, err, "Keeping counts of refused token requests")
	})
	return func(ctx context.Context) {
		logger := klog.FromContext(ctx)
		var data map[string]string
		err := startup.DefaultRetry.WaitFor(ctx, where, func(ctx context.Context) (err error) {
			data, _, err = record.Read(ctx)
			return err
		})
		if err != nil {
			utilruntime.HandleErrorWithContext(ctx, err, "Reading counts of refused token requests", "configMap", where)
			return
		}
		entries, skipped := parseEntries(data)
		g.lockouts.mu.Lock()
		g.lockouts.noteReadLocked(entries)
		g.lockouts.mu.Unlock()
		logger.Info("Read counts of refused token requests", "configMap", where, "users", len(entries), "skipped", len(skipped), "bound", MaxRecordEntries)
	}
}
