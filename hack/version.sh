#!/usr/bin/env bash
# Prints what this tree builds as, for the Makefile, hack/image.sh (the Dockerfile's
# VERSION and COMMIT) and the end-to-end tests:
#
#   hack/version.sh version   the latest v* tag (git describe), or, with none, a Go-style
#                             pseudo-version v0.0.0-<commit time UTC>-<commit>
#   hack/version.sh commit    the commit's 12-character hash, "-dirty" with uncommitted edits
#   hack/version.sh ldflags   the -X flags that stamp both into pkg/buildinfo
#
# Outside a git checkout: v0.0.0-dev and unknown.
set -o errexit -o nounset -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
MODULE=github.com/samplecrd/network-controller

commit() {
  git describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null || echo unknown
}

version() {
  local v time hash
  if v="$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)"; then
    echo "${v}"
    return
  fi
  if ! hash="$(git rev-parse --short=12 HEAD 2>/dev/null)"; then
    echo v0.0.0-dev
    return
  fi
  time="$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S)"
  echo "v0.0.0-${time}-${hash}"
}

case "${1:-}" in
  version) version ;;
  commit) commit ;;
  ldflags) echo "-X ${MODULE}/pkg/buildinfo.version=$(version) -X ${MODULE}/pkg/buildinfo.commit=$(commit)" ;;
  *) echo "usage: $0 version|commit|ldflags" >&2; exit 2 ;;
esac
