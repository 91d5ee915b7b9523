#!/usr/bin/env bash
# Fails when hand-written Go files are not gofmt-formatted (vendor/ and generated code
# are left to their generators).
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${REPO_ROOT}"
mapfile -t files < <(find . -name '*.go' -not -path './vendor/*' -not -path './pkg/client/*' \
    -not -path './_output/*' -not -name 'zz_generated*')
unformatted="$(gofmt -l "${files[@]}")"
if [[ -n "${unformatted}" ]]; then
    echo "verify-gofmt: these files need gofmt -w:" >&2
    echo "${unformatted}" >&2
    exit 1
fi
echo "verify-gofmt: ${#files[@]} files formatted"
