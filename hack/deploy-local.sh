#!/usr/bin/env bash
# `make deploy`: runs the controller the way a cluster runs it, as the Pods of deploy/ (or
# of the Helm chart) on the real node of hack/local-node.sh, against the local Keystone and
# Neutron. Starts whichever of the local servers is not running, and leaves them running
# (`make stop` stops them all).
#
# Usage: hack/deploy-local.sh [kustomize|helm]   install (default kustomize); again: update
#        hack/deploy-local.sh remove              remove what either installed
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

cmd_remove() {
  hack/helm.sh uninstall network-controller --namespace "${NAMESPACE}" --ignore-not-found --wait >&2 || true
  kubectl delete --ignore-not-found --wait=true -k deploy/ >&2
  kubectl delete namespace --ignore-not-found --wait=true "${NAMESPACE}" >&2
  log "removed"
}

cmd_install() {
  local how=$1 image
  image="${IMAGE:-localhost/network-controller:$(hack/version.sh version)}"
  hack/local-kube.sh status >/dev/null 2>&1 || hack/local-kube.sh start >&2
  hack/local-neutron.sh status >/dev/null 2>&1 || hack/local-neutron.sh start >&2
  hack/local-keystone.sh start >/dev/null
  hack/local-node.sh start >&2
  IMAGE="${image}" BASE_IMAGES="${BASE_IMAGES:-auto}" hack/image.sh >&2
  hack/local-node.sh load-image "${image}"

  local clouds
  clouds="$(hack/local-keystone.sh env | sed -n 's/^KEYSTONE_NODE_CLOUDS_YAML=//p')"
  [[ -f "${clouds}" ]] || die "hack/local-keystone.sh wrote no clouds-node.yaml"
  kubectl apply --server-side --field-manager=deploy-local -f crd/ >&2
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
      hack/helm.sh upgrade --install network-controller charts/network-controller --namespace "${NAMESPACE}" \
        --set "image.repository=${image%:*}" --set "image.tag=${image##*:}" >&2
      ;;
    *) die "usage: $0 [kustomize|helm] | remove" ;;
  esac
  kubectl rollout status deployment/network-controller --namespace "${NAMESPACE}" --timeout=3m >&2
  log "network-controller runs as ${image} on the local node (${how}); kubectl -n ${NAMESPACE} get pods -o wide"
}

case "${1:-kustomize}" in
  remove) cmd_remove ;;
  kustomize | helm) cmd_install "${1:-kustomize}" ;;
  *) echo "usage: $0 [kustomize|helm] | remove" >&2; exit 2 ;;
esac
