#!/usr/bin/env bash
# `make deploy`: runs the controller the way a cluster runs it, as the Pods of deploy/ (or
# of the Helm chart) on the real node of hack/local-node.sh, against the local Keystone and
# Neutron. Starts whichever of the local servers is not running, and leaves them running
# (`make stop` stops them all).
#
# Usage: hack/deploy-local.sh [kustomize|helm]   install (default kustomize); again: update
#        hack/deploy-local.sh release-yaml DIR    install or upgrade to the release in DIR
#                                                 (hack/release.sh): kubectl apply its install.yaml
#        hack/deploy-local.sh release-helm DIR [HELM ARGS...]
#                                                 the same with its chart: helm upgrade --install
#        hack/deploy-local.sh remove [DIR]        remove what any of them installed (with DIR,
#                                                 also the objects of DIR's install.yaml), never
#                                                 the CRDs
#
# What it does: builds the image from the Dockerfile (hack/image.sh) as IMAGE and loads it
# into the node; applies crd/; creates the namespace network-controller and the Secret
# network-controller-clouds with the controller's member-role cloud as Pods reach it
# (hack/local-keystone.sh's clouds-node.yaml), as docs/operations.md does before a Helm
# install; then applies deploy/ unchanged but for the
# image (an overlay of a temporary folder with an images: entry), or installs the chart
# as the release network-controller with image.repository and image.tag set; and waits
# until both replicas are Ready.
#
# Environment:
#   LOCAL_KUBE_STATE  the local control plane to use (default _output/local/kube)
#   IMAGE             image to build and run (default localhost/network-controller:<version>)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"
KUBE_STATE="${LOCAL_KUBE_STATE:-${ROOT}/_output/local/kube}"
NAMESPACE=network-controller

# shellcheck source=hack/lib/log.sh
source "${ROOT}/hack/lib/log.sh"

export KUBECONFIG="${KUBE_STATE}/kubeconfig"
export LOCAL_KUBE_STATE="${KUBE_STATE}"

# without_crds FILE: FILE's YAML documents but its CustomResourceDefinitions.
without_crds() {
  awk 'function flush() { if (doc !~ /\nkind: CustomResourceDefinition\n/) printf "%s", doc; doc = "" }
    /^---$/ { flush() } { doc = doc $0 "\n" } END { flush() }' "$1"
}

cmd_remove() {
  local release=${1:-}
  hack/helm.sh uninstall network-controller --namespace "${NAMESPACE}" --ignore-not-found --wait >&2 || true
  if [[ -n "${release}" ]]; then
    without_crds "${release}/install.yaml" | kubectl delete --ignore-not-found --wait=true -f - >&2
  fi
  kubectl delete --ignore-not-found --wait=true -k deploy/ >&2
  kubectl delete namespace --ignore-not-found --wait=true "${NAMESPACE}" >&2
  log "removed"
}

# start_servers: the local servers and node, whichever is not running.
start_servers() {
  hack/local-kube.sh status >/dev/null 2>&1 || hack/local-kube.sh start >&2
  hack/local-neutron.sh status >/dev/null 2>&1 || hack/local-neutron.sh start >&2
  hack/local-keystone.sh start >/dev/null
  hack/local-node.sh start >&2
}

# prepare_namespace: the controller's namespace and its clouds Secret, as the docs have an
# operator make them before installing.
prepare_namespace() {
  local clouds
  clouds="$(hack/local-keystone.sh env | sed -n 's/^KEYSTONE_NODE_CLOUDS_YAML=//p')"
  [[ -f "${clouds}" ]] || die "hack/local-keystone.sh wrote no clouds-node.yaml"
  # The namespace with the labels deploy/ gives it (restricted Pod Security), before the
  # Secret in it; a Helm release needs it to exist, and deploy/ takes it over.
  kubectl create namespace "${NAMESPACE}" --dry-run=client -o yaml |
    kubectl apply --server-side --field-manager=deploy-local -f - >&2
  kubectl label namespace "${NAMESPACE}" --overwrite pod-security.kubernetes.io/enforce=restricted \
    pod-security.kubernetes.io/enforce-version=latest pod-security.kubernetes.io/warn=restricted \
    pod-security.kubernetes.io/warn-version=latest >&2
  kubectl create secret generic network-controller-clouds --namespace "${NAMESPACE}" \
    --from-file=clouds.yaml="${clouds}" --dry-run=client -o yaml |
    kubectl apply --server-side --field-manager=deploy-local -f - >&2
}

cmd_install() {
  local how=$1 image
  image="${IMAGE:-localhost/network-controller:$(hack/version.sh version)}"
  start_servers
  IMAGE="${image}" BASE_IMAGES="${BASE_IMAGES:-auto}" hack/image.sh >&2
  hack/local-node.sh load-image "${image}"
  kubectl apply --server-side --field-manager=deploy-local -f crd/ >&2
  prepare_namespace

  case "${how}" in
    kustomize)
      local overlay
      overlay="$(mktemp -d)"
      trap 'rm -rf "${overlay}"' RETURN
      printf 'resources: [%s]\nimages:\n  - name: network-controller\n    newName: %s\n    newTag: %s\n' \
        "$(realpath --relative-to="${overlay}" "${ROOT}/deploy")" "${image%:*}" "${image##*:}" >"${overlay}/kustomization.yaml"
      kubectl apply --server-side --field-manager=deploy-local -k "${overlay}" >&2
      ;;
    helm)
      # crds.enabled=false: the CRDs are crd/'s, applied above, as deploy/ has them.
      hack/helm.sh upgrade --install network-controller charts/network-controller --namespace "${NAMESPACE}" \
        --set "image.repository=${image%:*}" --set "image.tag=${image##*:}" --set crds.enabled=false >&2
      ;;
    *) die "usage: $0 [kustomize|helm] | remove" ;;
  esac
  kubectl rollout status deployment/network-controller --namespace "${NAMESPACE}" --timeout=3m >&2
  log "network-controller runs as ${image} on the local node (${how}); kubectl -n ${NAMESPACE} get pods -o wide"
}

# cmd_release HOW DIR [HELM ARGS...]: the release hack/release.sh made in DIR, its image
# loaded into the node from the archive, installed (or upgraded to) with its install.yaml
# or its chart; the CRDs come from the release.
cmd_release() {
  local how=$1 dir=$2 reference
  shift 2
  [[ -f "${dir}/SHA256SUMS" ]] || die "${dir} holds no release (SHA256SUMS); make one with hack/release.sh"
  (cd "${dir}" && sha256sum --quiet -c SHA256SUMS) >&2 || die "${dir}: the files do not match SHA256SUMS"
  reference="$(cat "${dir}"/network-controller-*.digest)"
  start_servers
  hack/local-node.sh load-archive "$(ls "${dir}"/network-controller-*.oci.tar)" "${reference%@*}"
  prepare_namespace
  case "${how}" in
    yaml) kubectl apply --server-side --field-manager=deploy-local --force-conflicts -f "${dir}/install.yaml" >&2 ;;
    helm)
      local chart
      chart="$(ls "${dir}"/network-controller-*.tgz 2>/dev/null)" || die "${dir} holds no chart"
      hack/helm.sh upgrade --install network-controller "${chart}" --namespace "${NAMESPACE}" "$@" >&2
      ;;
  esac
  kubectl rollout status deployment/network-controller --namespace "${NAMESPACE}" --timeout=3m >&2
  log "network-controller runs as ${reference} on the local node (release ${dir}, ${how})"
}

case "${1:-kustomize}" in
  remove) cmd_remove "${2:-}" ;;
  release-yaml | release-helm)
    [[ -n "${2:-}" ]] || die "usage: $0 $1 DIR"
    how="${1#release-}" dir="$2"
    shift 2
    cmd_release "${how}" "${dir}" "$@"
    ;;
  kustomize | helm) cmd_install "${1:-kustomize}" ;;
  *) echo "usage: $0 [kustomize|helm] | release-yaml DIR | release-helm DIR [HELM ARGS...] | remove [DIR]" >&2; exit 2 ;;
esac
