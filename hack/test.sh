#!/usr/bin/env bash
# Runs what `make test` (all) or `make test-short` (short) runs, and prints how long each
# step took.
#
# Usage: hack/test.sh all|short
#
#   all    make verify, make unit, make monitoring, then hack/e2e.sh (every end-to-end test)
#          and hack/node-e2e.sh (the controller's Pods on a real kubelet)
#   short  make verify, make unit, then hack/e2e.sh -run '^TestWalkingSkeleton$'
#
# The local servers the end-to-end tests need (kube-apiserver, Neutron, Keystone with the
# tests' 45-second tokens), the Debian packages of the monitoring and end-to-end steps and helm,
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
servers_up="${out_dir}/servers.up"
rm -f "${servers_state}" "${installed}" "${servers_up}"
export KEYSTONE_TOKEN_EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-45}"

# The background start: packages first (apt-get one at a time), then the servers; it
# adds each server it started to servers.state as soon as it runs, so that the stop on
# exit also stops those a later start's failure left behind.
start_in_background() {
  hack/prometheus.sh install
  hack/lua.sh install
  hack/helm.sh build
  touch "${installed}"
  local kube neutron keystone=0
  kube="$(start_if_needed "the local kube-apiserver" hack/local-kube.sh)"
  echo "started_kube=${kube}" >>"${servers_state}"
  neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"
  echo "started_neutron=${neutron}" >>"${servers_state}"
  hack/local-keystone.sh status >/dev/null 2>&1 || keystone=1
  # Before the start: one that fails half-way is stopped too (stopping is idempotent).
  echo "started_keystone=${keystone}" >>"${servers_state}"
  hack/local-keystone.sh start >/dev/null
  touch "${servers_up}"
}

servers_pid=
steps=()
cleanup() {
  local rc=$?
  if [[ -n "${servers_pid}" ]] && kill -0 "${servers_pid}" 2>/dev/null; then
    log "waiting for the background start of the servers to finish, to stop them"
    wait "${servers_pid}" || true
  fi
  local cpu
  cpu="$(servers_cpu)"
  if [[ -f "${servers_state}" ]]; then
    # shellcheck disable=SC1090
    source "${servers_state}"
    stop_started_servers
  fi
  log "steps:"
  printf '  %-44s %7s %7s %15s\n' "" "seconds" "CPU s" "machine CPU s" >&2
  printf '  %s\n' "${steps[@]}" >&2
  if [[ -n "${cpu}" ]]; then
    log "CPU seconds of the local servers, since each started:"
    printf '%s\n' "${cpu}" >&2
  fi
  exit "${rc}"
}
trap cleanup EXIT

# The CPU columns say whether a step waited or worked: "CPU s" is what the step's own
# processes used (reaped children of this shell), "machine CPU s" what the whole machine
# used meanwhile, the servers started in the background included; on 2 cores a step whose
# machine CPU is near twice its seconds was limited by the cores.
hz=$(getconf CLK_TCK)
children_cpu_ticks() { awk '{print $16 + $17}' "/proc/$$/stat"; }
machine_cpu_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }

# step NAME COMMAND...: runs COMMAND and records how long it took and the CPU it used.
step() {
  local name=$1 start=${SECONDS} rc=0 own0 machine0
  shift
  own0=$(children_cpu_ticks)
  machine0=$(machine_cpu_ticks)
  "$@" || rc=$?
  steps+=("$(printf '%-44s %7d %7d %15d%s' "${name}" $((SECONDS - start)) \
    $((($(children_cpu_ticks) - own0) / hz)) $((($(machine_cpu_ticks) - machine0) / hz)) \
    "$([[ ${rc} == 0 ]] || echo "  FAILED (exit ${rc})")")")
  return "${rc}"
}

# servers_cpu: one line per local server still running, with the CPU seconds it used since
# it started (servers started in the background are not this shell's children).
servers_cpu() {
  local pidfile pid seen=" "
  for pidfile in _output/local/*/*.pid _output/local/*/run/*.pid; do
    [[ -f "${pidfile}" ]] || continue
    pid=$(<"${pidfile}")
    [[ "${pid}" =~ ^[0-9]+$ && -r "/proc/${pid}/stat" && "${seen}" != *" ${pid} "* ]] || continue
    seen+="${pid} "
    printf '  %-42s %7d\n' "$(basename "${pidfile}" .pid)" \
      $(($(awk '{print $14 + $15}' "/proc/${pid}/stat") / hz))
  done
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
own_began=$(children_cpu_ticks)
machine_began=$(machine_cpu_ticks)
log "starting the packages and local servers of the end-to-end tests in the background (log: ${servers_log})"
start_in_background >"${servers_log}" 2>&1 &
servers_pid=$!

step "make verify" make --no-print-directory verify
step "make unit" make --no-print-directory unit
if [[ "${mode}" == all ]]; then
  step "packages installed (background)" wait_for_background "${installed}"
  step "make monitoring" make --no-print-directory monitoring
fi
step "servers up (background, after the above)" wait_for_background "${servers_up}"
if [[ "${mode}" == all ]]; then
  step "end-to-end tests (hack/e2e.sh)" hack/e2e.sh
  step "the controller on a real node (hack/node-e2e.sh)" hack/node-e2e.sh
else
  step "end-to-end story (TestWalkingSkeleton)" hack/e2e.sh -run '^TestWalkingSkeleton$'
fi
steps+=("$(printf '%-44s %7d %7d %15d' "in all" $((SECONDS - began)) \
  $((($(children_cpu_ticks) - own_began) / hz)) $((($(machine_cpu_ticks) - machine_began) / hz)))")
