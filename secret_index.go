package main

import (
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// bySecretIndex indexes Networks by the namespace/name of the Secret their credentials
// are in.
const bySecretIndex = "credentialsSecret"

func indexBySecret(obj any) ([]string, error) {
	network, ok := obj.(*samplecrdv1.Network)
	if !ok || network.Spec.CloudCredentialsRef == nil {
		return nil, nil
	}
	return []string{secretOf(network).String()}, nil
}

// secretOf returns the key of the Secret a Network's credentials are in, or a zero key.
func secretOf(network *samplecrdv1.Network) cache.ObjectName {
	if network.Spec.CloudCredentialsRef == nil {
		return cache.ObjectName{}
	}
	return cache.NewObjectName(network.Namespace, network.Spec.CloudCredentialsRef.SecretName)
}
