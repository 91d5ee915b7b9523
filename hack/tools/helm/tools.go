//go:build tools

// Package tools pins helm's command in go.mod, so that hack/helm.sh builds
// helm.sh/helm/v4/cmd/helm from this module at that version.
package tools

import _ "helm.sh/helm/v4/cmd/helm"
