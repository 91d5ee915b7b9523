package lockout

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// writeTimeout bounds one write: a flush is waited for by token requests.
const writeTimeout = 10 * time.Second

// ConfigMap is a Record in the data of one ConfigMap (Name of the namespace configMaps is
// for), so that the counts outlive the process and every controller of the cluster shares
// them: writers stage changes in order and flush them together, one merge patch for
// every change staged meanwhile. Each patch carries the resourceVersion this process last
// read or wrote as a precondition, so a write after another writer's fails with a
// conflict instead of overwriting what the writer did not see.
type ConfigMap struct {
	configMaps   corev1client.ConfigMapInterface
	name         string
	fieldManager string
	labels       map[string]string

	// write is held by the one flush writing (writing); changes staged meanwhile wait in
	// next.
	write   sync.Mutex
	mu      sync.Mutex
	next    *batch
	writing *batch
	// version is the ConfigMap's resourceVersion as this process last read or wrote it;
	// "" before it exists.
	version string
}

// batch is the changes staged since the last write began, and that write's outcome.
type batch struct {
	changes map[string]*string
	done    chan struct{}
	err     error
}

// NewConfigMap returns the record in ConfigMap name, created (with labels) on the first write.
func NewConfigMap(configMaps corev1client.ConfigMapInterface, name, fieldManager string, labels map[string]string) *ConfigMap {
	return &ConfigMap{configMaps: configMaps, name: name, fieldManager: fieldManager, labels: labels}
}

// Name is the ConfigMap's name.
func (r *ConfigMap) Name() string { return r.name }

// Load returns the record's entries; none when the ConfigMap does not exist yet.
func (r *ConfigMap) Load(ctx context.Context) (map[string]string, error) {
	cm, err := r.configMaps.Get(ctx, r.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		r.setVersion("")
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading ConfigMap %s: %w", r.name, err)
	}
	r.setVersion(cm.ResourceVersion)
	if cm.Data == nil {
		return map[string]string{}, nil
	}
	return cm.Data, nil
}

// Latest is Load: the record as it is now, the version the next write is checked against.
func (r *ConfigMap) Latest(ctx context.Context) (map[string]string, error) { return r.Load(ctx) }

func (r *ConfigMap) setVersion(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.version = v
}

// Stage queues value for key (nil removes it) behind everything staged before.
func (r *ConfigMap) Stage(key string, value *string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next == nil {
		r.next = &batch{changes: map[string]*string{}, done: make(chan struct{})}
	}
	r.next.changes[key] = value
}

// Flush returns once every change staged before it is written, or the write failed.
func (r *ConfigMap) Flush(ctx context.Context) error {
	r.mu.Lock()
	b := r.next
	if b == nil {
		b = r.writing // writes are in order: the last one covers all before it
	}
	r.mu.Unlock()
	if b == nil {
		return nil
	}
	r.write.Lock()
	select {
	case <-b.done: // an earlier flush wrote it
	default:
		r.mu.Lock()
		if r.next == b {
			r.next = nil
		}
		r.writing = b
		r.mu.Unlock()
		b.err = r.patch(b.changes)
		close(b.done)
	}
	r.write.Unlock()
	select {
	case <-b.done:
		return b.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// patch merges changes into the ConfigMap's data, creating the ConfigMap if need be. A
// merge patch touches only the keys it names, so an entry removed by someone else stays
// removed.
func (r *ConfigMap) patch(changes map[string]*string) error {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	r.mu.Lock()
	version := r.version
	r.mu.Unlock()
	patch := map[string]any{"data": changes}
	if version != "" {
		patch["metadata"] = map[string]any{"resourceVersion": version}
	}
	body, err := json.Marshal(patch)
	if err != nil {
		return fmt.Errorf("encoding a patch of ConfigMap %s: %w", r.name, err)
	}
	for range 2 {
		var written *corev1.ConfigMap
		written, err = r.configMaps.Patch(ctx, r.name, types.MergePatchType, body, metav1.PatchOptions{FieldManager: r.fieldManager})
		if err == nil {
			r.setVersion(written.ResourceVersion)
		}
		if !apierrors.IsNotFound(err) {
			break
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: r.name, Labels: maps.Clone(r.labels)}, Data: map[string]string{}}
		for key, value := range changes {
			if value != nil {
				cm.Data[key] = *value
			}
		}
		var created *corev1.ConfigMap
		created, err = r.configMaps.Create(ctx, cm, metav1.CreateOptions{FieldManager: r.fieldManager})
		if err == nil {
			r.setVersion(created.ResourceVersion)
		}
		if apierrors.IsAlreadyExists(err) {
			// Another controller made it meanwhile: what it holds was not read.
			return fmt.Errorf("writing ConfigMap %s: %w", r.name, apierrors.NewConflict(corev1.Resource("configmaps"), r.name, err))
		}
		break
	}
	if err != nil {
		return fmt.Errorf("writing ConfigMap %s: %w", r.name, err)
	}
	return nil
}
