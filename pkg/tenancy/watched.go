package tenancy

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/samplecrd/network-controller/pkg/scope"
)

// WatchedSecrets is the SecretSource of a running controller: versions from an informer
// of Secrets' metadata (which never carries their data), data by a GET of the one Secret
// a Network names.
type WatchedSecrets struct {
	informers *scope.Informers
	client    kubernetes.Interface
}

// NewWatchedSecrets reads versions from informers of Secrets' metadata, and data through
// client.
func NewWatchedSecrets(informers *scope.Informers, client kubernetes.Interface) *WatchedSecrets {
	return &WatchedSecrets{informers: informers, client: client}
}

func (w *WatchedSecrets) Version(namespace, name string) (string, bool) {
	obj, exists, err := w.informers.Indexer(namespace).GetByKey(namespace + "/" + name)
	if err != nil || !exists {
		return "", false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	return m.GetResourceVersion(), true
}

func (w *WatchedSecrets) Data(ctx context.Context, namespace, name string) (map[string][]byte, string, error) {
	secret, err := w.client.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, "", fmt.Errorf("reading Secret %s/%s: %w", namespace, name, err)
	}
	return secret.Data, secret.ResourceVersion, nil
}

// StripSecretMetadata keeps, of a Secret's metadata, only what identifies it, its version
// and what the finalizer guard reads. The rest is not needed, and an annotation such as
// kubectl.kubernetes.io/last-applied-configuration holds a copy of the Secret's data.
func StripSecretMetadata(obj any) (any, error) {
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		// A tombstone or anything else passes through unchanged.
		return obj, nil
	}
	return &metav1.PartialObjectMetadata{
		TypeMeta: m.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
			Finalizers: m.Finalizers, DeletionTimestamp: m.DeletionTimestamp,
		},
	}, nil
}
