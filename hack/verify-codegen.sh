#!/usr/bin/env bash
# Fails when the committed generated code differs from what hack/update-codegen.sh
# produces now. Works on a scratch copy, so the work tree is never touched.
#
# Regenerating takes over a minute on 2 cores, so a pass leaves a stamp: the hash of
# everything the generators read or write (pkg/apis, pkg/client, crd/ and the chart's copy, hack/, vendor/,
# go.mod, go.sum and the Go version). While that hash is unchanged, the check passes
# without regenerating; delete the stamp to force it. A fresh clone has no stamp.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
STAMP="${REPO_ROOT}/_output/verify-codegen.passed"

# inputs_hash: one hash over the generators' inputs and outputs; a file missing from the
# work tree (deleted, not yet committed) just drops out of it.
inputs_hash() {
    (
        cd "${REPO_ROOT}"
        go version
        git ls-files -z --cached --others --exclude-standard -- \
            pkg/apis pkg/client crd charts/network-controller/files/crds hack vendor go.mod go.sum |
            xargs -0 sha256sum 2>/dev/null || true
    ) | sha256sum | cut -d' ' -f1
}
hash="$(inputs_hash)"
if [[ -f "${STAMP}" && "$(<"${STAMP}")" == "${hash}" ]]; then
    echo "verify-codegen: generated code and crd/ are up to date (their inputs are unchanged since they last passed; rm ${STAMP#"${REPO_ROOT}"/} to regenerate)"
    exit 0
fi
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

# pkg/ holds the generated Go code, crd/ the CustomResourceDefinitions, the chart a copy.
status=0
for dir in pkg crd charts/network-controller/files/crds; do
    if ! diff -Nru "${REPO_ROOT}/${dir}" "${SCRATCH}/${dir}"; then
        status=1
    fi
done
if [[ "${status}" -ne 0 ]]; then
    echo "verify-codegen: generated code or crd/ is out of date; run hack/update-codegen.sh and commit the result" >&2
    exit 1
fi
# Only for what was checked: not when something changed while the generators ran.
if [[ "$(inputs_hash)" == "${hash}" ]]; then
    mkdir -p "$(dirname "${STAMP}")"
    echo "${hash}" >"${STAMP}"
fi
echo "verify-codegen: generated code and crd/ are up to date"
