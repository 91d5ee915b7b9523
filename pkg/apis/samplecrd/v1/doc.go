// +k8s:deepcopy-gen=package
// +groupName=samplecrd.k8s.io

// Package v1 is version v1 of the samplecrd.k8s.io API: the Network resource.
package v1
