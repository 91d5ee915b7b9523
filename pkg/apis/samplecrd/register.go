// Package samplecrd holds the API group shared by every version of the Network API.
package samplecrd

const (
	// GroupName is the API group of the Network resource. It is a protected *.k8s.io group,
	// which is why Network's markers give crd/network.yaml the api-approved.kubernetes.io
	// annotation.
	GroupName = "samplecrd.k8s.io"
	// Version is the only served and stored version.
	Version = "v1"
)
