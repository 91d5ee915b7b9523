#!/usr/bin/env bash
# The OLM bundle of the version in VERSION, in _output/bundle (BUNDLE_DIR overrides):
# manifests/ (the ClusterServiceVersion, the CRDs of crd/, the ClusterRoles deploy/ leaves
# to others to bind) and metadata/annotations.yaml, made by hack/olm from the sources of
# deploy/ and the chart, then validated with operator-framework's own library
# (github.com/operator-framework/api): the bundle, CSV and CRD suites, OperatorHub with its
# capabilities and categories, good practices, deprecated APIs. A single error or warning
# fails. hack/olm is a Go module of its own: the controller's go.mod and vendor/ carry none
# of that library's dependencies, which the Go module proxy serves on the first run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${BUNDLE_DIR:-${root}/_output/bundle}"
bin="${root}/_output/bin/olm"
cd "${root}/hack/olm"
export GOFLAGS=-mod=readonly
go test -count=1 .
go build -o "${bin}" .
"${bin}" generate -root "${root}" -out "${out}"
"${bin}" validate "${out}"
