// +k8s:deepcopy-gen=package
// +groupName=samplecrd.k8s.io

// Package v1 is version v1 of the samplecrd.k8s.io API: the Network resource.
//
// hack/update-codegen.sh generates crd/network.yaml from the types of this package:
// the +kubebuilder markers give the CRD its validation rules, printer columns and
// subresources, and the doc comments its descriptions. Where markers need an
// explanation that is no part of the API documentation, the markers and their
// explanation stand in a comment group of their own just above the doc comment:
// controller-gen reads markers there, and no generator copies that group into
// documentation. A rule whose marker would pass 300 characters is in network_rules.yaml
// instead, folded over lines, with the schema nodes it goes to; hack/crdpatch adds it.
package v1
