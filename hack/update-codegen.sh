#!/usr/bin/env bash
# Regenerates deepcopy functions and the typed clientset, listers and informers for
# pkg/apis from the vendored k8s.io/code-generator, and the CustomResourceDefinitions
# crd/network.yaml and crd/clusteridentity.yaml from the vendored controller-gen. Run after changing pkg/apis.
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

# The CRDs: controller-gen writes one per kind from the types and their +kubebuilder
# markers into a scratch folder (as <group>_<plural>.yaml), and hack/crdpatch adds the
# maxLength of the strings no marker reaches, and the validation rules too long for a
# marker line (kept folded in a rules file beside the types), while writing each to its
# file in crd/, the names every script and test applies (kubectl apply -f crd/).
go install sigs.k8s.io/controller-tools/cmd/controller-gen
CRD_OUT="$(mktemp -d)"
trap 'rm -rf "${CRD_OUT}"' EXIT
"${GOBIN}/controller-gen" \
    crd:headerFile="${REPO_ROOT}/hack/boilerplate.crd.yaml.txt" \
    paths=./pkg/apis/... \
    output:crd:dir="${CRD_OUT}"
declare -A crd_files=(
    [samplecrd.k8s.io_networks.yaml]=network.yaml
    [samplecrd.k8s.io_clusteridentities.yaml]=clusteridentity.yaml
)
declare -A crd_rules=(
    [samplecrd.k8s.io_networks.yaml]=pkg/apis/samplecrd/v1/network_rules.yaml
)
mkdir -p "${REPO_ROOT}/crd"
for generated in "${CRD_OUT}"/*; do
    name="${generated##*/}"
    if [[ -z "${crd_files[${name}]:-}" ]]; then
        echo "update-codegen: controller-gen wrote ${name}, which has no file in crd/ here; a new kind needs one" >&2
        exit 1
    fi
    go run ./hack/crdpatch "${generated}" "${REPO_ROOT}/crd/${crd_files[${name}]}" ${crd_rules[${name}]:+"${REPO_ROOT}/${crd_rules[${name}]}"}
done

# The Helm chart renders the same CRDs from its files/crds/ (templates/crds.yaml; a copy:
# Helm reads only files inside the chart, and logs every symbolic link it follows).
CHART_CRDS="${REPO_ROOT}/charts/network-controller/files/crds"
mkdir -p "${CHART_CRDS}"
rm -f "${CHART_CRDS}"/*.yaml
cp "${REPO_ROOT}"/crd/*.yaml "${CHART_CRDS}/"
