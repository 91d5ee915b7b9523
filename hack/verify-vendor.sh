#!/usr/bin/env bash
# Fails when go.mod/go.sum are not tidy or vendor/ differs from what "go mod vendor"
# writes, so a dependency change cannot land half-done.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${REPO_ROOT}"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "${SCRATCH}"' EXIT

if ! GOFLAGS=-mod=mod go mod tidy -diff >"${SCRATCH}/tidy.diff" 2>&1; then
    cat "${SCRATCH}/tidy.diff" >&2
    echo "verify-vendor: go.mod/go.sum are not tidy; run 'go mod tidy && go mod vendor' and commit both" >&2
    exit 1
fi
go mod vendor -o "${SCRATCH}/vendor"
if ! diff -r -q vendor "${SCRATCH}/vendor"; then
    echo "verify-vendor: vendor/ is stale; run 'go mod vendor' and commit it" >&2
    exit 1
fi
echo "verify-vendor: go.mod, go.sum and vendor/ are consistent"
