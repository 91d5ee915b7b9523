package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// newSecretMetadataInformer watches the metadata of every Secret, never their data, and
// keeps of each only its name and version: enough to notice a credentials Secret change,
// while the data of the one Secret a Network names is read when its version is new.
func newSecretMetadataInformer(client metadata.Interface) (cache.SharedIndexInformer, error) {
	informer := metadatainformer.NewFilteredMetadataInformer(client, corev1.SchemeGroupVersion.WithResource("secrets"),
		metav1.NamespaceAll, 0, cache.Indexers{}, nil).Informer()
	if err := informer.SetTransform(tenancy.StripSecretMetadata); err != nil {
		return nil, fmt.Errorf("setting the Secret metadata transform: %w", err)
	}
	return informer, nil
}
