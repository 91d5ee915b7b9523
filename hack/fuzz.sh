#!/usr/bin/env bash
# Runs every Go native fuzz target of the module (each func FuzzXxx in a _test.go file of
# a package under ./...) for FUZZ_TIME each, one after another. The seed corpora alone
# already run with the unit tests; this explores beyond them. A failing input is written
# to the package's testdata/fuzz/<FuzzXxx>/ folder by go test: commit it, and it becomes
# a regression case of the unit tests.
#
# Usage: hack/fuzz.sh
#
# Environment:
#   FUZZ_TIME  time per target, a go test -fuzztime value (default 60s)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"

# shellcheck source=hack/lib/go.sh
source "${ROOT}/hack/lib/go.sh"
FUZZ_TIME="${FUZZ_TIME:-60s}"

log() { echo "fuzz: $*" >&2; }

targets=()
while read -r dir pkg; do
  [[ -n "${dir}" ]] || continue
  while read -r name; do
    [[ -n "${name}" ]] && targets+=("${pkg} ${name}")
  done < <(grep -ho '^func Fuzz[A-Za-z0-9_]*(' "${dir}"/*_test.go 2>/dev/null | sed 's/^func //; s/($//' | sort -u)
done < <("${GO}" list -f '{{.Dir}} {{.ImportPath}}' ./...)

if [[ ${#targets[@]} -eq 0 ]]; then
  log "no fuzz targets found"
  exit 1
fi
log "${#targets[@]} fuzz targets, ${FUZZ_TIME} each"

# corpus_files DIR NAME lists the saved inputs of one target (failing inputs land there).
corpus_files() { ls "$1/testdata/fuzz/$2" 2>/dev/null | sort || true; }

out="$(mktemp)"
trap 'rm -f "${out}"' EXIT
failed=()
for target in "${targets[@]}"; do
  read -r pkg name <<<"${target}"
  dir="$("${GO}" list -f '{{.Dir}}' "${pkg}")"
  log "${pkg} ${name}"
  before="$(corpus_files "${dir}" "${name}")"
  if "${GO}" test -run '^$' -fuzz "^${name}\$" -fuzztime "${FUZZ_TIME}" "${pkg}" 2>&1 | tee "${out}"; then
    continue
  fi
  # Go before 1.27 can fail a target with a bare "context deadline exceeded" when the
  # -fuzztime deadline races a busy worker (go.dev/issue/75804, common on loaded
  # machines). That is no finding: no failing input was written. Anything else is.
  if [[ "$(corpus_files "${dir}" "${name}")" == "${before}" ]] && grep -q 'context deadline exceeded' "${out}" &&
    ! grep -q 'Failing input written' "${out}"; then
    log "${name}: ran for ${FUZZ_TIME}; Go's fuzz coordinator then reported its own deadline (go.dev/issue/75804), no failing input: not a failure"
    continue
  fi
  failed+=("${pkg} ${name}")
done

if [[ ${#failed[@]} -gt 0 ]]; then
  log "FAILED: ${failed[*]}"
  exit 1
fi
log "all ${#targets[@]} fuzz targets passed"
