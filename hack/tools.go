//go:build tools

// Package tools records build-time dependencies so that "go mod vendor" keeps them,
// which lets hack/update-codegen.sh run the code generators without network access.
package tools

import (
	// kube_codegen.sh and the generators it installs.
	_ "k8s.io/code-generator"
	_ "k8s.io/code-generator/cmd/validation-gen"
	// controller-gen writes crd/network.yaml from the markers in pkg/apis.
	_ "sigs.k8s.io/controller-tools/cmd/controller-gen"
)
