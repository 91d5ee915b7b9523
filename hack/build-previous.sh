#!/usr/bin/env bash
# Builds the controller of an earlier commit, for the upgrade test (test/e2e/upgrade_test.go),
# and prints the binary's absolute path on stdout; or releases it, for the upgrade of the
# Pods on a node (test/node/upgrade_test.go), and prints the release's folder.
#
# Usage: hack/build-previous.sh [COMMIT]           (default 072492e, the last version before grants)
#        hack/build-previous.sh --release [COMMIT] (default: hack/version.sh previous, the
#                                                  previous release) hack/release.sh of the
#                                                  commit into _output/upgrade/release-<short
#                                                  hash>, reused while its SHA256SUMS hold
#
# The commit is checked out in a detached git worktree, _output/upgrade/<short hash>, and
# built from its own vendor/ (offline: -mod=vendor, the local toolchain) with the flags of
# hack/e2e.sh's builds (CGO_ENABLED=0, -trimpath), so that the packages both versions share
# come from Go's build cache, into _output/upgrade/bin/network-controller-<short hash>.
# A binary already there is reused; a worktree already there at that commit is reused, one
# at another commit (or a leftover folder) is made again. Runs at once wait for each other.
#
# Both are also kept outside the clone, beside the servers' builds (hack/lib/kube-build.sh),
# so that a new clone on the same machine (make test on CI) reuses them instead of
# building the commit again: the binary in TOOLS_BIN_CACHE (default
# /var/cache/network-controller/bin) as network-controller-<commit>-<stamp>, the release in
# PREVIOUS_RELEASE_CACHE (default /var/cache/network-controller/release) as
# <commit>-<stamp>, where the stamp hashes the Go toolchain and, for a release, this tree's
# release scripts (a release is reproducible: the same commit and scripts give the same
# bytes). A release from the cache is used while its SHA256SUMS hold; entries unused for
# 30 days are removed; a cache that cannot be written only costs the next clone a build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"
# shellcheck source=hack/lib/log.sh
source hack/lib/log.sh
# shellcheck source=hack/lib/go.sh
source hack/lib/go.sh
# shellcheck source=hack/lib/lock.sh
source hack/lib/lock.sh

release=0
if [[ "${1:-}" == --release ]]; then
  release=1
  shift
fi
if ((release)); then
  commit="${1:-$(hack/version.sh previous)}"
else
  commit="${1:-072492e}"
fi
# A shallow clone lacks the commit: say so instead of failing inside git worktree.
git cat-file -e "${commit}^{commit}" 2>/dev/null ||
  die "commit ${commit} is not in this clone; fetch the full history (git fetch --unshallow, or fetch-depth: 0 in CI)"
full="$(git rev-parse --verify "${commit}^{commit}")"
short="${full:0:7}"
tree="_output/upgrade/${short}"
bin="${ROOT}/_output/upgrade/bin/network-controller-${short}"

take_lock "_output/upgrade/.lock" 900 "another hack/build-previous.sh kept _output/upgrade/.lock for 15 minutes"

TOOLS_BIN_CACHE="${TOOLS_BIN_CACHE:-/var/cache/network-controller/bin}"
PREVIOUS_RELEASE_CACHE="${PREVIOUS_RELEASE_CACHE:-/var/cache/network-controller/release}"

# stamp: what besides the commit decides the build (see the header).
stamp() {
  {
    "${GO}" version
    if ((release)); then
      sha256sum hack/release.sh hack/image.sh hack/base-images.sh hack/helm.sh hack/tools/helm/go.mod hack/tools/helm/go.sum Dockerfile
    fi
  } | sha256sum | cut -c1-16
}

# sums_hold DIR: DIR holds a release whose SHA256SUMS hold.
sums_hold() { [[ -f "$1/SHA256SUMS" ]] && (cd "$1" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1; }

# keep_in_cache SOURCE DEST: copies SOURCE (a file or a folder) to DEST in the cache,
# under a temporary name first, and removes the cache's entries unused for 30 days.
keep_in_cache() {
  local source=$1 dest=$2 dir tmp
  dir="$(dirname "${dest}")"
  if mkdir -p "${dir}" 2>/dev/null && tmp="$(mktemp -d "${dir}/.tmp.XXXXXX" 2>/dev/null)" &&
    cp -a "${source}" "${tmp}/entry" && rm -rf "${dest}" && mv "${tmp}/entry" "${dest}" && touch "${dest}"; then
    log "kept ${source#"${ROOT}/"} in the build cache (${dest})"
  else
    log "cannot write the build cache ${dir}; the next clone builds ${short} again"
  fi
  [[ -z "${tmp:-}" ]] || rm -rf "${tmp}"
  find "${dir}" -mindepth 1 -maxdepth 1 -mtime +30 -exec rm -rf {} + 2>/dev/null || true
}

released="${ROOT}/_output/upgrade/release-${short}"
if ((release)); then
  cached_release="${PREVIOUS_RELEASE_CACHE}/${full}-$(stamp)"
  if sums_hold "${released}"; then
    log "reusing the release ${released#"${ROOT}/"} (commit ${short})"
    sums_hold "${cached_release}" || keep_in_cache "${released}" "${cached_release}"
    echo "${released}"
    exit 0
  fi
  if sums_hold "${cached_release}"; then
    rm -rf "${released}" "${released}.tmp"
    mkdir -p "$(dirname "${released}")"
    cp -a "${cached_release}" "${released}.tmp"
    mv "${released}.tmp" "${released}"
    touch "${cached_release}"
    if sums_hold "${released}"; then
      log "copied the release of ${short} from the build cache (${cached_release})"
      echo "${released}"
      exit 0
    fi
    log "the copy of ${cached_release} does not match its SHA256SUMS; releasing ${short} again"
  fi
else
  cached_bin="${TOOLS_BIN_CACHE}/network-controller-${full}-$(stamp)"
  if [[ -x "${bin}" ]]; then
    log "reusing ${bin#"${ROOT}/"} (commit ${short})"
    [[ -x "${cached_bin}" ]] || keep_in_cache "${bin}" "${cached_bin}"
    echo "${bin}"
    exit 0
  fi
  if [[ -x "${cached_bin}" ]]; then
    mkdir -p "$(dirname "${bin}")"
    cp -f "${cached_bin}" "${bin}.tmp"
    mv "${bin}.tmp" "${bin}"
    touch "${cached_bin}"
    log "copied the controller of ${short} from the build cache (${cached_bin})"
    echo "${bin}"
    exit 0
  fi
fi

if [[ -e "${tree}" ]] && [[ "$(git -C "${tree}" rev-parse --show-toplevel 2>/dev/null)" == "${ROOT}/${tree}" ]] &&
  [[ "$(git -C "${tree}" rev-parse HEAD)" == "${full}" ]]; then
  log "reusing the worktree ${tree} at ${short}"
else
  if [[ -e "${tree}" ]]; then
    log "removing ${tree}: not a worktree at ${short}"
    git worktree remove --force "${tree}" 2>/dev/null || rm -rf "${tree}"
  fi
  log "adding the worktree ${tree} at ${short}"
  # --force: the folder may still be registered after an rm -rf of _output; this
  # repository's other worktrees are left alone (no git worktree prune).
  git worktree add --quiet --force --detach "${tree}" "${full}" >&2
fi

if ((release)); then
  # The image is built from the worktree's own Dockerfile and vendor/, offline.
  RELEASE_DIR="${released}" hack/release.sh "${tree}" >&2
  keep_in_cache "${released}" "${cached_release}"
  echo "${released}"
  exit 0
fi

log "building the controller of ${short} into ${bin#"${ROOT}/"}"
start=${SECONDS}
mkdir -p "$(dirname "${bin}")"
# GOFLAGS replaced, not extended: the caller's are meant for this tree, not the old one.
# GOTOOLCHAIN=local and GOPROXY=off: offline, or fail.
(cd "${tree}" && CGO_ENABLED=0 GOFLAGS="-mod=vendor -trimpath -buildvcs=false" GOWORK=off GOTOOLCHAIN=local GOPROXY=off \
  "${GO}" build -o "${bin}.tmp" .) >&2
mv "${bin}.tmp" "${bin}"
log "built ${bin#"${ROOT}/"} in $((SECONDS - start)) s"
keep_in_cache "${bin}" "${cached_bin}"
echo "${bin}"
