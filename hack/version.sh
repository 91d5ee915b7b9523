#!/usr/bin/env bash
# Prints what this tree builds as, for the Makefile, hack/image.sh (the Dockerfile's
# VERSION and COMMIT), hack/release.sh and the end-to-end tests:
#
#   hack/version.sh version   the version in the file VERSION (a semantic version, v-prefixed)
#   hack/version.sh commit    the commit's 12-character hash, "-dirty" with uncommitted edits
#   hack/version.sh ldflags   the -X flags that stamp both into pkg/buildinfo
#   hack/version.sh previous  the commit of the release before this tree's version: the newest
#                             commit that set VERSION to another final version (no "-..."
#                             suffix); before a second version exists, 072492e (the last
#                             build before grants) stands in for it
#
# VERSION is the one place a version is written. A release commit sets it (and CHANGELOG.md,
# the chart's version and appVersion: hack/verify-version.sh checks they agree); the commits
# after it build as the same version with another commit, until the next release.
# Outside a git checkout the commit is "unknown"; without VERSION the version is v0.0.0-dev.
set -o errexit -o nounset -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
MODULE=github.com/samplecrd/network-controller
# The stand-in for the previous release until the history holds two versions.
STAND_IN=072492e
SEMVER='^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$'

commit() {
  git describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null || echo unknown
}

# version_in TEXT: the version a VERSION file's TEXT holds, or an error naming what is wrong.
version_in() {
  local v
  v="$(tr -d '[:space:]' <<<"$1")"
  [[ "${v}" =~ ${SEMVER} ]] || { echo "VERSION holds \"${v}\", not a version like v1.2.3 or v1.2.3-rc.1" >&2; return 1; }
  echo "${v}"
}

version() {
  [[ -f VERSION ]] || { echo v0.0.0-dev; return; }
  version_in "$(cat VERSION)"
}

previous() {
  local current c v
  current="$(version)"
  # Each commit that changed VERSION, newest first; the first whose version is final and
  # differs from this tree's is the previous release.
  while read -r c; do
    v="$(git show "${c}:VERSION" 2>/dev/null)" || continue
    v="$(version_in "${v}" 2>/dev/null)" || continue
    if [[ "${v}" != "${current}" && "${v}" != *-* ]]; then
      git rev-parse --short=12 "${c}"
      return
    fi
  done < <(git log --format=%H -- VERSION 2>/dev/null)
  git rev-parse --short=12 "${STAND_IN}^{commit}" 2>/dev/null ||
    { echo "no previous release: the history lacks ${STAND_IN} (a shallow clone? git fetch --unshallow)" >&2; return 1; }
}

case "${1:-}" in
  version) version ;;
  commit) commit ;;
  ldflags) echo "-X ${MODULE}/pkg/buildinfo.version=$(version) -X ${MODULE}/pkg/buildinfo.commit=$(commit)" ;;
  previous) previous ;;
  *) echo "usage: $0 version|commit|ldflags|previous" >&2; exit 2 ;;
esac
