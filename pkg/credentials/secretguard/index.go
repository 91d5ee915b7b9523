package secretguard

import (
	"fmt"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// BySecretIndex indexes Networks by the namespace/name of the Secret their credentials
// are in.
const BySecretIndex = "credentialsSecret"

// IndexNetworks adds BySecretIndex to the Network informers: the guard and the Network
// controller both find a Secret's Networks through it.
func IndexNetworks(networks *scope.Informers) error {
	if err := networks.AddIndexers(cache.Indexers{BySecretIndex: indexBySecret}); err != nil {
		return fmt.Errorf("indexing Networks by credentials Secret: %w", err)
	}
	return nil
}

func indexBySecret(obj any) ([]string, error) {
	network, ok := obj.(*samplecrdv1.Network)
	if !ok || !network.Spec.CloudCredentialsRef.OwnSecret() {
		return nil, nil
	}
	return []string{SecretOf(network).String()}, nil
}

// SecretOf returns the key of the Secret of its namespace a Network's credentials are in,
// or a zero key (the controller's own cloud, or a ClusterIdentity's Secret, which the
// operator keeps).
func SecretOf(network *samplecrdv1.Network) cache.ObjectName {
	if !network.Spec.CloudCredentialsRef.OwnSecret() {
		return cache.ObjectName{}
	}
	return cache.NewObjectName(network.Namespace, network.Spec.CloudCredentialsRef.SecretName)
}
