#!/usr/bin/env bash
# Regenerates deepcopy functions and the typed clientset, listers and informers for
# pkg/apis from the vendored k8s.io/code-generator, and the CustomResourceDefinition
# crd/network.yaml from the vendored controller-gen. Run after changing pkg/apis.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
# The generators resolve packages through the module that contains the working directory.
cd "${REPO_ROOT}"
CODEGEN_PKG="${REPO_ROOT}/vendor/k8s.io/code-generator"
if [[ ! -f "${CODEGEN_PKG}/kube_codegen.sh" ]]; then
    echo "update-codegen: ${CODEGEN_PKG}/kube_codegen.sh is missing; run 'go mod vendor'" >&2
    exit 1
fi

# The generators are built from vendor/ into the build cache folder, not into ~/go/bin.
export GOFLAGS=-mod=vendor
export GOBIN="${REPO_ROOT}/_output/codegen-bin"
mkdir -p "${GOBIN}" "${REPO_ROOT}/pkg/client"

# shellcheck source=/dev/null
source "${CODEGEN_PKG}/kube_codegen.sh"

MODULE=github.com/samplecrd/network-controller

kube::codegen::gen_helpers \
    --boilerplate "${REPO_ROOT}/hack/boilerplate.go.txt" \
    "${REPO_ROOT}/pkg/apis"

kube::codegen::gen_client \
    --with-watch \
    --with-applyconfig \
    --output-dir "${REPO_ROOT}/pkg/client" \
    --output-pkg "${MODULE}/pkg/client" \
    --boilerplate "${REPO_ROOT}/hack/boilerplate.go.txt" \
    "${REPO_ROOT}/pkg/apis"

# The CRD: controller-gen writes it from the types and their +kubebuilder markers into a
# scratch folder (as <group>_<plural>.yaml), and hack/crdpatch adds the maxLength of the
# strings no marker reaches while writing it to crd/network.yaml, the name every script
# and test applies.
go install sigs.k8s.io/controller-tools/cmd/controller-gen
CRD_OUT="$(mktemp -d)"
trap 'rm -rf "${CRD_OUT}"' EXIT
"${GOBIN}/controller-gen" \
    crd:headerFile="${REPO_ROOT}/hack/boilerplate.crd.yaml.txt" \
    paths=./pkg/apis/... \
    output:crd:dir="${CRD_OUT}"
generated=("${CRD_OUT}"/*)
if [[ "${generated[*]}" != "${CRD_OUT}/samplecrd.k8s.io_networks.yaml" ]]; then
    echo "update-codegen: controller-gen wrote ${generated[*]##*/}, not just samplecrd.k8s.io_networks.yaml;" \
        "a new kind needs its own file in crd/ here" >&2
    exit 1
fi
mkdir -p "${REPO_ROOT}/crd"
go run ./hack/crdpatch "${generated[0]}" "${REPO_ROOT}/crd/network.yaml"
