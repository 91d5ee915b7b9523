package lockout

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// callTimeout bounds one read or write of the ConfigMap: token requests wait for them.
const callTimeout = 10 * time.Second

// ConfigMap is a Record in the data of one ConfigMap, shared by every controller of the
// cluster. A write is a merge patch of the keys decided, with the resourceVersion read as
// its precondition; the first write creates the ConfigMap, and fails with a conflict when
// another writer made it first.
type ConfigMap struct {
	configMaps   corev1client.ConfigMapInterface
	name         string
	fieldManager string
	labels       map[string]string
}

// NewConfigMap returns the record in ConfigMap name, created (with labels) on the first write.
func NewConfigMap(configMaps corev1client.ConfigMapInterface, name, fieldManager string, labels map[string]string) *ConfigMap {
	return &ConfigMap{configMaps: configMaps, name: name, fieldManager: fieldManager, labels: labels}
}

// Read returns the record's entries and version; none and "" when the ConfigMap does not
// exist yet.
func (r *ConfigMap) Read(ctx context.Context) (map[string]string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	cm, err := r.configMaps.Get(ctx, r.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return map[string]string{}, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading ConfigMap %s: %w", r.name, err)
	}
	if cm.Data == nil {
		return map[string]string{}, cm.ResourceVersion, nil
	}
	return cm.Data, cm.ResourceVersion, nil
}

// Write merges changes into the ConfigMap if it is still at version. A merge patch
// touches only the keys it names.
func (r *ConfigMap) Write(ctx context.Context, version string, changes map[string]*string) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if version == "" {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: r.name, Labels: maps.Clone(r.labels)}, Data: map[string]string{}}
		for key, value := range changes {
			if value != nil {
				cm.Data[key] = *value
			}
		}
		_, err := r.configMaps.Create(ctx, cm, metav1.CreateOptions{FieldManager: r.fieldManager})
		if apierrors.IsAlreadyExists(err) {
			// Another controller made it meanwhile: what it holds was not read.
			return fmt.Errorf("creating ConfigMap %s: %w", r.name, apierrors.NewConflict(corev1.Resource("configmaps"), r.name, err))
		}
		if err != nil {
			return fmt.Errorf("creating ConfigMap %s: %w", r.name, err)
		}
		return nil
	}
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": version}, "data": changes})
	if err != nil {
		return fmt.Errorf("encoding a patch of ConfigMap %s: %w", r.name, err)
	}
	if _, err := r.configMaps.Patch(ctx, r.name, types.MergePatchType, body, metav1.PatchOptions{FieldManager: r.fieldManager}); err != nil {
		if apierrors.IsNotFound(err) {
			// Deleted since it was read: decide again on what is there now.
			return fmt.Errorf("writing ConfigMap %s: %w", r.name, apierrors.NewConflict(corev1.Resource("configmaps"), r.name, err))
		}
		return fmt.Errorf("writing ConfigMap %s: %w", r.name, err)
	}
	return nil
}
