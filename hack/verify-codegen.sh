#!/usr/bin/env bash
# Fails when the committed generated code differs from what hack/update-codegen.sh
# produces now. Works on a scratch copy, so the work tree is never touched.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "${SCRATCH}"' EXIT

# Copy everything the generators read; skip the git history and the local server state.
tar -C "${REPO_ROOT}" --exclude=./.git --exclude=./_output -cf - . | tar -C "${SCRATCH}" -xf -
# Reuse the already built generators when there are any.
if [[ -d "${REPO_ROOT}/_output/codegen-bin" ]]; then
    mkdir -p "${SCRATCH}/_output"
    cp -r "${REPO_ROOT}/_output/codegen-bin" "${SCRATCH}/_output/"
fi

"${SCRATCH}/hack/update-codegen.sh" >/dev/null

# pkg/ holds the generated Go code, crd/ the CustomResourceDefinition.
status=0
for dir in pkg crd; do
    if ! diff -Nru "${REPO_ROOT}/${dir}" "${SCRATCH}/${dir}"; then
        status=1
    fi
done
if [[ "${status}" -ne 0 ]]; then
    echo "verify-codegen: generated code or crd/ is out of date; run hack/update-codegen.sh and commit the result" >&2
    exit 1
fi
echo "verify-codegen: generated code and crd/ are up to date"
