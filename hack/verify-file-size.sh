#!/usr/bin/env bash
# Fails when a hand-written Go file, tests included, is longer than 600 lines: past that a
# file has more than one reason to change, and a reader cannot hold it.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${REPO_ROOT}"
MAX_LINES=600
mapfile -t files < <(find . -name '*.go' -not -path './vendor/*' -not -path './pkg/client/*' \
    -not -path './_output/*' -not -name 'zz_generated*' | sort)
long="$(wc -l "${files[@]}" | awk -v max="${MAX_LINES}" '$2 != "total" && $1 > max { print "  " $2 " (" $1 " lines)" }')"
if [[ -n "${long}" ]]; then
    echo "verify-file-size: split these files (${MAX_LINES} lines at most):" >&2
    echo "${long}" >&2
    exit 1
fi
echo "verify-file-size: ${#files[@]} files of ${MAX_LINES} lines or fewer"
