package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// newSecretMetadataInformers watch the metadata of every Secret in the watched
// namespaces, never their data, and keep of each only its name, version and finalizers:
// enough to notice a credentials Secret change and to guard it, while the data of the one
// Secret a Network names is read when its version is new.
func newSecretMetadataInformers(client metadata.Interface, namespaces scope.Namespaces) (*scope.Informers, error) {
	informers := scope.NewInformers(namespaces, func(namespace string) cache.SharedIndexInformer {
		return metadatainformer.NewFilteredMetadataInformer(client, corev1.SchemeGroupVersion.WithResource("secrets"),
			namespace, 0, cache.Indexers{}, nil).Informer()
	})
	if err := informers.SetTransform(tenancy.StripSecretMetadata); err != nil {
		return nil, fmt.Errorf("setting the Secret metadata transform: %w", err)
	}
	return informers, nil
}
