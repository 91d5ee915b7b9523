#!/usr/bin/env bash
# Runs the end-to-end tests (test/e2e) against a real kube-apiserver and a real
# neutron-server on loopback.
#
# Usage: hack/e2e.sh [extra go test args, e.g. -run TestWalkingSkeleton]
#
# Starts hack/local-kube.sh and hack/local-neutron.sh when they are not already
# running, and stops (on exit) only the ones it started. Exports KUBECONFIG,
# NEUTRON_ENDPOINT and E2E_LOCAL_NEUTRON=1 (the outage test may stop and start the
# local Neutron through hack/local-neutron.sh). The exit code is go test's.
#
# Environment:
#   E2E_TIMEOUT   go test -timeout (default 25m)
#   NEUTRON_PORT  port of the local Neutron (default 19696, as hack/local-neutron.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"

log() { echo "e2e: $*" >&2; }

GO=go
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
  GO=/usr/local/go/bin/go
fi

started_kube=0
started_neutron=0

cleanup() {
  local rc=$?
  if [[ "${started_neutron}" == 1 ]]; then
    log "stopping the local Neutron this script started"
    hack/local-neutron.sh stop || true
  fi
  if [[ "${started_kube}" == 1 ]]; then
    log "stopping the local kube-apiserver this script started"
    hack/local-kube.sh stop || true
  fi
  exit "${rc}"
}
trap cleanup EXIT

# start_if_needed NAME SCRIPT: starts SCRIPT unless its status says it runs, and prints 1
# when this script started it. The start's own "already running" counts as not started
# (someone else may have started it between the status and the start).
start_if_needed() {
  local name=$1 script=$2 out
  if "${script}" status >/dev/null 2>&1; then
    log "${name} already running; leaving it running afterwards"
    echo 0
    return
  fi
  log "starting ${name}"
  out="$("${script}" start 2>&1)" || { printf '%s\n' "${out}" >&2; log "starting ${name} failed"; return 1; }
  printf '%s\n' "${out}" >&2
  if grep -q "already running" <<<"${out}"; then
    log "${name} was started by someone else meanwhile; leaving it running afterwards"
    echo 0
  else
    echo 1
  fi
}

started_kube="$(start_if_needed "the local kube-apiserver" hack/local-kube.sh)"
started_neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"

export KUBECONFIG="${ROOT}/_output/local/kube/kubeconfig"
export NEUTRON_ENDPOINT="http://127.0.0.1:${NEUTRON_PORT:-19696}/"
export E2E_LOCAL_NEUTRON=1

log "KUBECONFIG=${KUBECONFIG} NEUTRON_ENDPOINT=${NEUTRON_ENDPOINT}"
set +e
"${GO}" test -tags e2e -count=1 -timeout "${E2E_TIMEOUT:-25m}" -v ./test/e2e/... "$@"
rc=$?
set -e
log "go test exited with ${rc}"
exit "${rc}"
