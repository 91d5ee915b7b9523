#!/usr/bin/env bash
# Runs what `make test` (all) or `make test-short` (short) runs, and prints how long each
# step took.
#
# Usage: hack/test.sh all|short
#
#   all    make verify, make unit, make monitoring, then hack/e2e.sh (every end-to-end test)
#   short  make verify, make unit, then hack/e2e.sh -run '^TestWalkingSkeleton$'
#
# The local servers the end-to-end tests need (kube-apiserver, Neutron, Keystone with the
# tests' 45-second tokens), and the Debian packages of the monitoring and end-to-end steps,
# come up in the background meanwhile (log: _output/test/servers.log), so that the
# end-to-end tests start as soon as the unit tests are done; hack/e2e.sh then finds them
# running. Servers that were not running before are stopped on exit, as hack/e2e.sh does.
set -euo pipefail

# shellcheck source=hack/lib/uses-local-servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/uses-local-servers.sh"

mode="${1:-}"
case "${mode}" in
  all | short) ;;
  *) echo "usage: $0 all|short" >&2; exit 2 ;;
esac

out_dir=_output/test
mkdir -p "${out_dir}"
servers_log="${out_dir}/servers.log"
servers_state="${out_dir}/servers.state"
installed="${out_dir}/packages.installed"
rm -f "${servers_state}" "${installed}"
export KEYSTONE_TOKEN_EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-45}"

# The background start: packages first (apt-get one at a time), then the servers; it
# writes which servers it started to servers.state for the stop on exit.
start_in_background() {
  hack/prometheus.sh install
  hack/lua.sh install
  touch "${installed}"
  local kube neutron keystone=0
  kube="$(start_if_needed "the local kube-apiserver" hack/local-kube.sh)"
  neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"
  hack/local-keystone.sh status >/dev/null 2>&1 || keystone=1
  hack/local-keystone.sh start >/dev/null
  echo "started_kube=${kube} started_neutron=${neutron} started_keystone=${keystone}" >"${servers_state}"
}

servers_pid=
steps=()
cleanup() {
  local rc=$?
  if [[ -n "${servers_pid}" ]] && kill -0 "${servers_pid}" 2>/dev/null; then
    log "waiting for the background start of the servers to finish, to stop them"
    wait "${servers_pid}" || true
  fi
  if [[ -f "${servers_state}" ]]; then
    # shellcheck disable=SC1090
    source "${servers_state}"
    stop_started_servers
  fi
  log "steps (seconds):"
  printf '  %s\n' "${steps[@]}" >&2
  exit "${rc}"
}
trap cleanup EXIT

# step NAME COMMAND...: runs COMMAND and records how long it took.
step() {
  local name=$1 start=${SECONDS} rc=0
  shift
  "$@" || rc=$?
  steps+=("$(printf '%-44s %5d%s' "${name}" $((SECONDS - start)) "$([[ ${rc} == 0 ]] || echo "  FAILED (exit ${rc})")")")
  return "${rc}"
}

# wait_for_background WHAT: waits until the background start wrote its file WHAT, and fails
# when it ended without.
wait_for_background() {
  local file=$1
  while [[ ! -f "${file}" ]]; do
    if ! kill -0 "${servers_pid}" 2>/dev/null; then
      wait "${servers_pid}" || true
      [[ -f "${file}" ]] && return 0
      log "ERROR: the background start of the servers failed; its log, ${servers_log}:"
      tail -n 40 "${servers_log}" >&2
      return 1
    fi
    sleep 0.5
  done
}

began=${SECONDS}
log "starting the packages and local servers of the end-to-end tests in the background (log: ${servers_log})"
start_in_background >"${servers_log}" 2>&1 &
servers_pid=$!

step "make verify" make --no-print-directory verify
step "make unit" make --no-print-directory unit
if [[ "${mode}" == all ]]; then
  step "packages installed (background)" wait_for_background "${installed}"
  step "make monitoring" make --no-print-directory monitoring
fi
step "servers up (background, after the above)" wait_for_background "${servers_state}"
if [[ "${mode}" == all ]]; then
  step "end-to-end tests (hack/e2e.sh)" hack/e2e.sh
else
  step "end-to-end story (TestWalkingSkeleton)" hack/e2e.sh -run '^TestWalkingSkeleton$'
fi
steps+=("$(printf '%-44s %5d' "in all" $((SECONDS - began)))")
