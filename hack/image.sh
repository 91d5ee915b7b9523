#!/usr/bin/env bash
# `make image`: builds the container image from the Dockerfile, with whichever engine this
# machine has, without needing a registry.
#
# Usage: hack/image.sh [build]   build ${IMAGE}
#        hack/image.sh engine    print the engine build would use (installing podman if needed)
#
# Engine (IMAGE_ENGINE overrides): docker when a Docker daemon answers, else podman (run as
# root, no daemon; installed with apt-get when missing), else buildah.
#
# Base images (BASE_IMAGES overrides): "registry" keeps the Dockerfile's defaults
# (golang:*, gcr.io/distroless/static-debian12:nonroot); "local" makes equivalents from this
# machine's Go toolchain and Debian files (hack/base-images.sh) and passes them as the
# GO_IMAGE and BASE_IMAGE build args; "auto" (default) picks registry when Docker Hub and
# gcr.io answer, local otherwise. GO_IMAGE and BASE_IMAGE in the environment win over both.
#
# Environment:
#   IMAGE          tag to build (default network-controller:<hack/version.sh version>)
#   IMAGE_CONTEXT  dir (default): this folder, filtered by .dockerignore;
#                  tracked: only the files git tracks (no untracked files in the build)
#   IMAGE_ENGINE   docker, podman or buildah
#   BASE_IMAGES    auto, registry or local
#   IMAGE_SOURCE   the tree to build, its Dockerfile and files (default: this one);
#                  hack/release.sh builds an earlier release's worktree with it
#   IMAGE_VERSION, IMAGE_COMMIT  what the binary names itself (default: hack/version.sh's
#                  answers for this tree)
#   IMAGE_TIMESTAMP  podman and buildah: the images' creation time and every file's time
#                  in the layers they add (--timestamp, epoch seconds), for a reproducible
#                  image: hack/release.sh passes the commit's time
set -o errexit -o nounset -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${ROOT}"

IMAGE="${IMAGE:-network-controller:$(hack/version.sh version)}"
ACTION="${1:-build}"

log() { echo "image: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# shellcheck source=hack/lib/go.sh
source "${ROOT}/hack/lib/go.sh"

pkg_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == installed ]]
}

# apt_install PACKAGE...: installs the missing ones (no-op when all are there). apt-get's
# output goes to stderr: "hack/image.sh engine" prints only the engine's name on stdout.
apt_install() {
  local missing=() p
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  [[ "$(id -u)" == 0 ]] || die "need root to install ${missing[*]} (apt-get)"
  command -v apt-get >/dev/null || die "no apt-get to install ${missing[*]}"
  log "installing Debian packages: ${missing[*]}"
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300)
  # runc rather than crun: crun fails on hosts with hybrid cgroups; naming runc also
  # keeps apt from picking crun for podman's "crun | runc" dependency.
  {
    "${apt[@]}" install -y --no-install-recommends "${missing[@]}" ||
      { log "apt-get install failed; running apt-get update and retrying" &&
        "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; }
  } >&2 || die "apt-get install ${missing[*]} failed"
}

docker_answers() {
  command -v docker >/dev/null && timeout 20 docker info >/dev/null 2>&1
}

pick_engine() {
  if [[ -n "${IMAGE_ENGINE:-}" ]]; then
    case "${IMAGE_ENGINE}" in
      docker | buildah) ;;
      podman) apt_install podman runc ;;
      *) die "IMAGE_ENGINE must be docker, podman or buildah, got ${IMAGE_ENGINE}" ;;
    esac
    echo "${IMAGE_ENGINE}"
  elif docker_answers; then
    echo docker
  elif command -v podman >/dev/null; then
    echo podman
  elif [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    apt_install podman runc
    echo podman
  elif command -v buildah >/dev/null; then
    echo buildah
  else
    die "no container engine: start a Docker daemon, or install podman (root: apt-get install podman runc) or buildah"
  fi
}

# registries_answer: both registries of the Dockerfile's default images answer (401 to an
# anonymous /v2/ is an answer).
registries_answer() {
  command -v curl >/dev/null || return 1
  local url
  for url in https://registry-1.docker.io/v2/ https://gcr.io/v2/; do
    curl -s -o /dev/null --max-time 5 "${url}" || return 1
  done
}

ENGINE="$(pick_engine)"
if [[ "${ACTION}" == engine ]]; then
  echo "${ENGINE}"
  exit 0
fi
[[ "${ACTION}" == build ]] || die "unknown action ${ACTION}; use build or engine"

# Settings podman and buildah need on hosts without CAP_SYS_RESOURCE (their default
# ulimits are higher than a process there may set; lowering is always allowed) and with
# hybrid cgroups (runc, not crun).
engine_cmd=("${ENGINE}")
limits=()
if [[ "${ENGINE}" != docker ]]; then
  limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
fi
if [[ "${ENGINE}" == podman ]] && command -v runc >/dev/null; then
  engine_cmd+=(--runtime "$(command -v runc)")
fi

build_args=()
local_bases=0
if [[ -z "${GO_IMAGE:-}${BASE_IMAGE:-}" ]]; then
  case "${BASE_IMAGES:-auto}" in
    registry) ;;
    local) local_bases=1 ;;
    auto) registries_answer || { log "Docker Hub or gcr.io does not answer: making local base images"; local_bases=1; } ;;
    *) die "BASE_IMAGES must be auto, registry or local, got ${BASE_IMAGES}" ;;
  esac
fi
if ((local_bases)); then
  apt_install busybox-static ca-certificates tzdata
  bases="$(hack/base-images.sh "${ENGINE}" ensure)"
  GO_IMAGE="$(sed -n 's/^GO_IMAGE=//p' <<<"${bases}")"
  BASE_IMAGE="$(sed -n 's/^BASE_IMAGE=//p' <<<"${bases}")"
fi
[[ -n "${GO_IMAGE:-}" ]] && build_args+=(--build-arg "GO_IMAGE=${GO_IMAGE}")
[[ -n "${BASE_IMAGE:-}" ]] && build_args+=(--build-arg "BASE_IMAGE=${BASE_IMAGE}")
build_args+=(--build-arg "VERSION=${IMAGE_VERSION:-$(hack/version.sh version)}"
  --build-arg "COMMIT=${IMAGE_COMMIT:-$(hack/version.sh commit)}")
timestamp=()
if [[ -n "${IMAGE_TIMESTAMP:-}" ]]; then
  [[ "${IMAGE_TIMESTAMP}" =~ ^[0-9]+$ ]] || die "IMAGE_TIMESTAMP must be epoch seconds, got ${IMAGE_TIMESTAMP}"
  [[ "${ENGINE}" != docker ]] || die "IMAGE_TIMESTAMP needs podman or buildah (docker build has no --timestamp)"
  timestamp=(--timestamp "${IMAGE_TIMESTAMP}")
fi

# The local builder holds this machine's Go toolchain, so this machine's Go build cache is
# valid inside it: lend it to the build (the Dockerfile's cache mount keeps only its own
# cache, which starts empty on a new machine). Docker's BuildKit takes no volumes.
volumes=()
gocache="$("${GO}" env GOCACHE 2>/dev/null || true)"
if ((local_bases)) && [[ "${ENGINE}" != docker && "${gocache}" == /* ]]; then
  mkdir -p "${gocache}"
  volumes=(-v "${gocache}:/root/.cache/go-build")
fi

source_dir="${IMAGE_SOURCE:-.}"
[[ -f "${source_dir}/Dockerfile" ]] || die "IMAGE_SOURCE ${source_dir} has no Dockerfile"
context="${source_dir}"
if [[ "${IMAGE_CONTEXT:-dir}" == tracked ]]; then
  git -C "${source_dir}" rev-parse --git-dir >/dev/null 2>&1 || die "IMAGE_CONTEXT=tracked needs a git checkout"
  context="$(mktemp -d "${TMPDIR:-/tmp}/image-context.XXXXXX")"
  trap 'rm -rf "${context}"' EXIT
  # The working tree's content of every tracked file (uncommitted edits included),
  # nothing untracked.
  git -C "${source_dir}" ls-files -z --cached |
    tar -C "${source_dir}" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "${context}" -xf -
elif [[ "${IMAGE_CONTEXT:-dir}" != dir ]]; then
  die "IMAGE_CONTEXT must be dir or tracked, got ${IMAGE_CONTEXT}"
fi

log "building ${IMAGE} with ${ENGINE}${GO_IMAGE:+ (GO_IMAGE=${GO_IMAGE}, BASE_IMAGE=${BASE_IMAGE:-default})}"
if ((${#volumes[@]})); then
  log "the builder compiles the controller and its vendored dependencies (client-go, gophercloud, ...):" \
    "about 2-5 minutes on 2 cores with a cold Go build cache, seconds when ${gocache} is warm"
else
  log "the builder compiles the controller and its vendored dependencies (client-go, gophercloud, ...):" \
    "about 2-5 minutes on 2 cores the first time"
fi
start=${SECONDS}
case "${ENGINE}" in
  docker) docker build "${build_args[@]}" -t "${IMAGE}" "${context}" ;;
  podman | buildah)
    # --network none: the build needs no network (vendor/, GOPROXY=off). --layers=false:
    # no intermediate images are left behind.
    "${engine_cmd[@]}" build --network none --layers=false "${limits[@]}" "${volumes[@]}" "${timestamp[@]}" \
      "${build_args[@]}" -t "${IMAGE}" "${context}"
    ;;
esac
if [[ "${ENGINE}" == buildah ]]; then
  size="$(buildah images --format '{{.Size}}' "${IMAGE}" 2>/dev/null || echo unknown)"
else
  size="$(("$("${engine_cmd[@]}" image inspect --format '{{.Size}}' "${IMAGE}")" / 1000 / 1000)) MB"
fi
log "built ${IMAGE} with ${ENGINE} in $((SECONDS - start)) s; image size ${size}"
