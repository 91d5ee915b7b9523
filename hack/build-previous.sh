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

released="${ROOT}/_output/upgrade/release-${short}"
if ((release)) && [[ -f "${released}/SHA256SUMS" ]] && (cd "${released}" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1; then
  log "reusing the release ${released#"${ROOT}/"} (commit ${short})"
  echo "${released}"
  exit 0
fi
if ((!release)) && [[ -x "${bin}" ]]; then
  log "reusing ${bin#"${ROOT}/"} (commit ${short})"
  echo "${bin}"
  exit 0
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
echo "${bin}"
