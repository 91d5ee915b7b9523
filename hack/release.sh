#!/usr/bin/env bash
# `make release`: the artifacts of a version, made offline (vendor/, local base images) and
# reproducibly (two runs on the same commit give the same bytes), under RELEASE_DIR:
#
#   network-controller-<version>.oci.tar  the image built from the Dockerfile with podman,
#                                          as an OCI archive (tag <version>)
#   network-controller-<version>.digest   the image's reference by digest, repo@sha256:...
#   install.yaml                           crd/ first, then the kustomize render of deploy/
#                                          with the image pinned by digest
#   network-controller-<chart version>.tgz the Helm chart, its image pinned by digest
#                                          (when the tree has charts/network-controller)
#   SHA256SUMS                             sha256sum of the files above
#
# Usage: hack/release.sh [SOURCE]   SOURCE: the tree to release (default this one); the
#        upgrade tests release an earlier commit's worktree (hack/build-previous.sh) with it
#
# Environment:
#   VERSION           the version to release (default: SOURCE's VERSION file; a tree without
#                     one, before v0.1.0, gets a Go-style pseudo-version of its commit)
#   RELEASE_DIR       where the artifacts go (default _output/release), emptied first
#   IMAGE_REPOSITORY  the image's name in the archive, install.yaml and the chart (default
#                     ghcr.io/samplecrd/network-controller)
#
# Reproducible: the image is built with --timestamp set to the commit's time from local base
# images that are themselves reproducible (hack/base-images.sh), its layers are compressed
# by the same code each time, and every archive is written with sorted names, the commit's
# time, numeric owners and gzip -n. Needs root for podman (hack/image.sh installs it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"
# shellcheck source=hack/lib/log.sh
source hack/lib/log.sh

SOURCE="$(cd "${1:-${ROOT}}" && pwd)"
RELEASE_DIR="${RELEASE_DIR:-${ROOT}/_output/release}"
IMAGE_REPOSITORY="${IMAGE_REPOSITORY:-ghcr.io/samplecrd/network-controller}"
git -C "${SOURCE}" rev-parse --git-dir >/dev/null 2>&1 || die "${SOURCE} is not a git checkout"

commit="$(git -C "${SOURCE}" describe --always --dirty --abbrev=12 --exclude='*')"
epoch="$(git -C "${SOURCE}" log -1 --format=%ct)"
if [[ -z "${VERSION:-}" ]]; then
  if [[ -f "${SOURCE}/VERSION" ]]; then
    VERSION="$(tr -d '[:space:]' <"${SOURCE}/VERSION")"
  else
    VERSION="v0.0.0-$(TZ=UTC git -C "${SOURCE}" log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S)-${commit:0:12}"
  fi
fi
[[ "${VERSION}" =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
  die "VERSION ${VERSION} is not a version like v1.2.3 or v1.2.3-rc.1"
[[ "${commit}" != *-dirty ]] || log "WARNING: ${SOURCE} has uncommitted edits: the artifacts hold them, and say commit ${commit}"

work="$(mktemp -d "${TMPDIR:-/tmp}/release.XXXXXX")"
image="${IMAGE_REPOSITORY}:${VERSION}"
cleanup() {
  rm -rf "${work}"
  podman image rm --force "${image}" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# pack DIR ENTRY OUT: a tar of DIR/ENTRY that depends on nothing but the files' contents,
# modes and names (gzip'd when OUT ends in .tgz).
pack() {
  local tar=(tar -C "$1" --sort=name --mtime="@${epoch}" --owner=0 --group=0 --numeric-owner
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf - "$2")
  if [[ "$3" == *.tgz ]]; then "${tar[@]}" | gzip -9 -n >"$3"; else "${tar[@]}" >"$3"; fi
}

log "releasing ${VERSION} (commit ${commit}) of ${SOURCE} into ${RELEASE_DIR}"
rm -rf "${RELEASE_DIR}"
mkdir -p "${RELEASE_DIR}"

# The image, from the tracked files only, on local base images (no registry), stamped with
# the version; then an OCI layout with one tag, archived.
IMAGE="${image}" IMAGE_SOURCE="${SOURCE}" IMAGE_CONTEXT=tracked IMAGE_ENGINE=podman BASE_IMAGES=local \
  IMAGE_VERSION="${VERSION}" IMAGE_COMMIT="${commit}" IMAGE_TIMESTAMP="${epoch}" hack/image.sh >&2
podman push --quiet --format oci --compression-format gzip "${image}" "oci:${work}/oci:${VERSION}" >&2
digest="$(jq -r '.manifests[0].digest' "${work}/oci/index.json")"
[[ "${digest}" =~ ^sha256:[0-9a-f]{64}$ ]] || die "no manifest digest in the OCI layout (${digest})"
archive="network-controller-${VERSION}.oci.tar"
pack "${work}/oci" . "${RELEASE_DIR}/${archive}"
echo "${IMAGE_REPOSITORY}@${digest}" >"${RELEASE_DIR}/network-controller-${VERSION}.digest"

# install.yaml: the CRDs, then deploy/ with the image by digest (an overlay that names it).
mkdir "${work}/overlay"
cat >"${work}/overlay/kustomization.yaml" <<EOF
resources: [$(realpath --relative-to="${work}/overlay" "${SOURCE}/deploy")]
images:
  - name: network-controller
    newName: ${IMAGE_REPOSITORY}
    digest: ${digest}
EOF
{
  echo "# network-controller ${VERSION} (commit ${commit}): kubectl apply --server-side -f install.yaml"
  for crd in "${SOURCE}"/crd/*.yaml; do
    echo "---"
    grep -v '^---$' "${crd}"
  done
  echo "---"
  kubectl kustomize "${work}/overlay"
} >"${RELEASE_DIR}/install.yaml"
grep -q "image: ${IMAGE_REPOSITORY}@${digest}" "${RELEASE_DIR}/install.yaml" ||
  die "install.yaml does not pin the image ${IMAGE_REPOSITORY}@${digest}"

# The chart, with the image by digest in its values (a chart from before image.digest
# existed gets the version as its tag, which the archive carries too).
chart="${SOURCE}/charts/network-controller"
if [[ -d "${chart}" ]]; then
  cp -r "${chart}" "${work}/chart"
  values="${work}/chart/values.yaml"
  if grep -q '^  digest:' "${values}"; then
    sed -i -e "s#^  repository: .*#  repository: ${IMAGE_REPOSITORY}#" -e "s#^  digest: .*#  digest: ${digest}#" "${values}"
  else
    sed -i -e "s#^  repository: .*#  repository: ${IMAGE_REPOSITORY}#" -e "s#^  tag: .*#  tag: ${VERSION}#" "${values}"
  fi
  mkdir "${work}/packaged"
  hack/helm.sh package "${work}/chart" --version "${VERSION#v}" --app-version "${VERSION}" \
    --destination "${work}/packaged" >&2
  tgz="$(cd "${work}/packaged" && ls ./*.tgz)"
  tgz="${tgz#./}"
  # helm package stamps the time of packaging: unpacked and packed again, reproducibly.
  mkdir "${work}/unpacked"
  tar -C "${work}/unpacked" -m -xzf "${work}/packaged/${tgz}"
  pack "${work}/unpacked" network-controller "${RELEASE_DIR}/${tgz}"
  rendered="$(hack/helm.sh template network-controller "${RELEASE_DIR}/${tgz}" --namespace network-controller)"
  grep -qE "image: \"?${IMAGE_REPOSITORY}(@${digest}|:${VERSION})\"?$" <<<"${rendered}" ||
    die "the packaged chart does not render the image ${IMAGE_REPOSITORY}@${digest}"
else
  log "${SOURCE} has no charts/network-controller: no chart in this release"
fi

(cd "${RELEASE_DIR}" && sha256sum -- * >"${work}/SHA256SUMS") && mv "${work}/SHA256SUMS" "${RELEASE_DIR}/SHA256SUMS"
log "released ${VERSION}: ${IMAGE_REPOSITORY}@${digest}"
(cd "${RELEASE_DIR}" && cat SHA256SUMS) >&2
