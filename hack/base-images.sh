#!/usr/bin/env bash
# Makes the two base images the Dockerfile takes as build args, from this machine's own
# files, for machines that cannot pull golang:* or gcr.io/distroless/* (no registry access):
#
#   builder (GO_IMAGE):   this machine's Go toolchain ($(go env GOROOT)) and busybox-static
#                         as /bin/sh, HOME=/root, /tmp.
#   base    (BASE_IMAGE): what distroless static:nonroot holds and nothing more: /etc/passwd
#                         and /etc/group with root and nonroot (65532), CA certificates,
#                         tzdata, /tmp, /home/nonroot; user 65532; no shell.
#
# Usage: hack/base-images.sh ENGINE ensure   prints GO_IMAGE=... and BASE_IMAGE=... lines
#        hack/base-images.sh ENGINE remove   removes the images this script made
# ENGINE is docker, podman or buildah (hack/image.sh picks it). Idempotent: an image is
# made again only when its inputs change (the tag is a hash of them).
set -o errexit -o nounset -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
ENGINE="${1:?usage: hack/base-images.sh docker|podman|buildah ensure|remove}"
ACTION="${2:?usage: hack/base-images.sh docker|podman|buildah ensure|remove}"
REPO=localhost/network-controller-base

log() { echo "base-images: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# shellcheck source=hack/lib/go.sh
source "${ROOT}/hack/lib/go.sh"

# engine runs the container engine with the settings this machine needs (see hack/image.sh).
engine() {
  case "${ENGINE}" in
    podman) podman --runtime "${PODMAN_RUNTIME:-runc}" "$@" ;;
    *) "${ENGINE}" "$@" ;;
  esac
}

image_exists() {
  case "${ENGINE}" in
    docker) docker image inspect "$1" >/dev/null 2>&1 ;;
    podman) podman image exists "$1" ;;
    buildah) buildah inspect --type image "$1" >/dev/null 2>&1 ;;
  esac
}

# import_tar TARBALL IMAGE CHANGE...: an image of one layer from TARBALL, with Dockerfile
# instructions (ENV, USER, WORKDIR) as its configuration. podman and buildah build it
# with --timestamp 0, so the same TARBALL makes the same image (its ID and digest), which
# keeps the release image of hack/release.sh reproducible; docker import stamps the time.
import_tar() {
  local tarball=$1 image=$2
  shift 2
  local c
  case "${ENGINE}" in
    docker)
      local changes=()
      for c in "$@"; do changes+=(--change "${c}"); done
      docker import "${changes[@]}" "${tarball}" "${image}" >/dev/null
      ;;
    podman | buildah)
      local dir
      dir="$(dirname "${tarball}")"
      { echo "FROM scratch"; echo "ADD $(basename "${tarball}") /"; printf '%s\n' "$@"; } >"${dir}/Containerfile"
      case "${ENGINE}" in
        podman) engine build --quiet --timestamp 0 --layers=false -t "${image}" -f "${dir}/Containerfile" "${dir}" >/dev/null ;;
        buildah) buildah bud --quiet --timestamp 0 --layers=false -t "${image}" -f "${dir}/Containerfile" "${dir}" >/dev/null ;;
      esac
      ;;
  esac
}

require_packages() {
  local p
  for p in "$@"; do
    [[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" == installed ]] ||
      die "Debian package $p is missing (hack/image.sh installs it)"
  done
}

# Inputs of each image, hashed into its tag.
goroot="$("${GO}" env GOROOT)"
goversion="$("${GO}" env GOVERSION)"
busybox=/bin/busybox
certs=/etc/ssl/certs/ca-certificates.crt
zoneinfo=/usr/share/zoneinfo
script_hash="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)"
builder_tag="build-${goversion}-$(printf '%s\n' "${script_hash}" "$(sha256sum "${goroot}/bin/go" "${busybox}" 2>/dev/null)" | sha256sum | cut -c1-12)"
base_tag="static-$(printf '%s\n' "${script_hash}" "$(dpkg-query -W -f='${Version}' ca-certificates tzdata 2>/dev/null)" "$(sha256sum "${certs}" 2>/dev/null)" | sha256sum | cut -c1-12)"
GO_IMAGE="${REPO}:${builder_tag}"
BASE_IMAGE="${REPO}:${base_tag}"

stage_common() { # DIR
  mkdir -p "$1/etc" "$1/tmp" "$1/root"
  chmod 1777 "$1/tmp"
  chmod 0700 "$1/root"
}

make_builder() {
  local dir=$1
  require_packages busybox-static
  stage_common "${dir}"
  mkdir -p "${dir}/bin" "${dir}/usr/local"
  cp "${busybox}" "${dir}/bin/busybox"
  # The applets the Dockerfile's RUN and a debugging shell need; busybox picks the applet
  # by the name it is called with.
  local a
  for a in sh ls cat cp mv rm mkdir env id; do ln -s busybox "${dir}/bin/${a}"; done
  printf 'root:x:0:0:root:/root:/bin/sh\n' >"${dir}/etc/passwd"
  printf 'root:x:0:\n' >"${dir}/etc/group"
  # GOROOT without its tests and docs: enough to build, 70 MB smaller.
  local g
  g="$(basename "${goroot}")"
  tar -C "${goroot}/.." --anchored --exclude="${g}/test" --exclude="${g}/api" --exclude="${g}/doc" \
    -cf - "${g}" | tar -C "${dir}/usr/local" -xf -
  if [[ "${g}" != go ]]; then
    mv "${dir}/usr/local/${g}" "${dir}/usr/local/go"
  fi
}

make_base() {
  local dir=$1
  require_packages ca-certificates tzdata
  stage_common "${dir}"
  mkdir -p "${dir}/etc/ssl/certs" "${dir}/usr/share" "${dir}/home/nonroot"
  chown 65532:65532 "${dir}/home/nonroot"
  chmod 0700 "${dir}/home/nonroot"
  cat >"${dir}/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
  cat >"${dir}/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
nonroot:x:65532:
EOF
  [[ -s "${certs}" ]] || die "${certs} is missing (update-ca-certificates?)"
  cp "${certs}" "${dir}/etc/ssl/certs/ca-certificates.crt"
  # zoneinfo, without the leap-second ("right/") copies Go never reads.
  tar -C /usr/share --exclude=zoneinfo/right -cf - zoneinfo | tar -C "${dir}/usr/share" -xf -
}

build_image() { # KIND IMAGE CHANGE...
  local kind=$1 image=$2
  shift 2
  local tmp
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/base-images.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '${tmp}'" RETURN
  mkdir "${tmp}/root" "${tmp}/context"
  "make_${kind}" "${tmp}/root"
  tar -C "${tmp}/root" --numeric-owner --sort=name --mtime=@0 -cf "${tmp}/context/rootfs.tar" .
  import_tar "${tmp}/context/rootfs.tar" "${image}" "$@"
  log "made ${image} ($(du -sh "${tmp}/context/rootfs.tar" | cut -f1) uncompressed)"
}

case "${ACTION}" in
  ensure)
    if ! image_exists "${GO_IMAGE}"; then
      log "making the builder image ${GO_IMAGE} from ${goroot} (${goversion}) and ${busybox}"
      build_image builder "${GO_IMAGE}" \
        "ENV PATH=/usr/local/go/bin:/bin" "ENV HOME=/root" "WORKDIR /"
    fi
    if ! image_exists "${BASE_IMAGE}"; then
      log "making the static nonroot base image ${BASE_IMAGE}"
      build_image base "${BASE_IMAGE}" \
        "ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt" "USER 65532:65532" "WORKDIR /home/nonroot"
    fi
    echo "GO_IMAGE=${GO_IMAGE}"
    echo "BASE_IMAGE=${BASE_IMAGE}"
    ;;
  remove)
    for image in "${GO_IMAGE}" "${BASE_IMAGE}"; do
      if image_exists "${image}"; then
        case "${ENGINE}" in
          buildah) buildah rmi "${image}" >/dev/null ;;
          *) engine rmi "${image}" >/dev/null ;;
        esac
        log "removed ${image}"
      fi
    done
    ;;
  *) die "unknown action ${ACTION}; use ensure or remove" ;;
esac
