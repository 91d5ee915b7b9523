#!/usr/bin/env bash
# Runs helm, built from helm.sh/helm/v4 at the version hack/tools/helm/go.mod pins into
# _output/bin/helm (again only when that module changed), like the Kubernetes servers of
# hack/local-kube.sh.
#
# Usage: hack/helm.sh build          build helm if needed, print nothing on stdout
#        hack/helm.sh ARGS...        build if needed, then run helm ARGS...
#
# e.g. hack/helm.sh lint charts/network-controller
#      hack/helm.sh template network-controller charts/network-controller -n network-controller
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${ROOT}/hack/tools"
BIN_DIR="${ROOT}/_output/bin"

# shellcheck source=hack/lib/log.sh
source "${ROOT}/hack/lib/log.sh"
# shellcheck source=hack/lib/kube-build.sh
source "${ROOT}/hack/lib/kube-build.sh"

(($#)) || die "usage: $0 build | helm arguments..."
# The build's own lines go to stderr: stdout is helm's (helm template).
build_one helm >&2
[[ "$1" == build ]] && exit 0
exec "${BIN_DIR}/helm" "$@"
