#!/usr/bin/env bash
# Checks that every place naming the version says the one in VERSION: the chart's version
# (without the "v") and appVersion, deploy/base's image tag, and a section of CHANGELOG.md.
# A release commit changes all four (docs/development.md, "Releasing").
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=hack/lib/log.sh
source hack/lib/log.sh

version="$(hack/version.sh version)"
chart=charts/network-controller/Chart.yaml
failed=0
check() { # WHAT FOUND
  if [[ "$2" != "$3" ]]; then
    log "ERROR: $1 says \"$2\", VERSION says ${version} (want \"$3\")"
    failed=1
  fi
}
check "${chart} version" "$(sed -n 's/^version: *//p' "${chart}")" "${version#v}"
check "${chart} appVersion" "$(sed -n 's/^appVersion: *//p' "${chart}" | tr -d '"')" "${version}"
check "deploy/base/kustomization.yaml newTag" "$(sed -n 's/^ *newTag: *//p' deploy/base/kustomization.yaml)" "${version}"
grep -qE "^## \[?${version//./\\.}\]?( |$)" CHANGELOG.md ||
  { log "ERROR: CHANGELOG.md has no section \"## ${version}\""; failed=1; }
((failed == 0)) || exit 1
log "VERSION ${version}: the chart, deploy/ and CHANGELOG.md agree"
