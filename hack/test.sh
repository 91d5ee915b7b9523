#!/usr/bin/env bash
# Runs what `make test` (all) or `make test-short` (short) runs, and prints how long each
# step took.
#
# Usage: hack/test.sh all|short
#
#   all    make verify, make unit, make bundle, make monitoring, then hack/e2e.sh (every end-to-end test)
#          on the default OpenStack release and the newest Kubernetes, then hack/node-e2e.sh
#          (the controller's Pods on a real kubelet) and, at the same time, the
#          compatibility set test/e2e/compat-kubernetes.txt on the oldest Kubernetes README
#          claims, then test/e2e/compat-openstack.txt on each other OpenStack release
#          (2022.2, newest; docs/compatibility.md). The summary at the end says, per
#          OpenStack release and Kubernetes version, how many tests ran, passed, failed and
#          were skipped.
#
#          Three things run side by side after the main end-to-end tests: the node step,
#          the oldest Kubernetes' set and the OpenStack sets. The node step and the oldest
#          Kubernetes' set each have a control plane of their own (hack/node-e2e.sh's on
#          ports 26443..., the oldest Kubernetes' on 36443...) and use the default
#          release's Neutron and Keystone, which this script started and neither stops. The
#          OpenStack sets run on the main control plane against a second cloud, the
#          compatibility cloud: a Neutron and Keystone of their own (ports 39696-39698,
#          35000-35001; state in _output/local/compat-cloud), started in the first other
#          release in the background during the main end-to-end tests, and restarted in the
#          next release after its set. The node step mostly waits (on the kubelet, image
#          builds, rollouts), so the three together take little longer than the longest
#          alone. The background steps' output goes to _output/test/node.log and
#          _output/test/compat-openstack.log and is printed once each ended.
#   short  make verify, make unit, then hack/e2e.sh -run '^TestWalkingSkeleton$'
#   compat-openstack, compat-kubernetes  print the -run pattern of that compatibility set,
#          for hack/e2e.sh (docs/compatibility.md)
#
# The local servers the end-to-end tests need (kube-apiserver, Neutron, Keystone with the
# tests' 45-second tokens), the Debian packages of the monitoring and end-to-end steps and helm,
# come up in the background meanwhile (the release's root beside helm's and the servers'
# builds; log: _output/test/servers.log), so that the end-to-end tests start as soon as the
# unit tests are done; hack/e2e.sh then finds them
# running. Servers that were not running before are stopped on exit, as hack/e2e.sh does.
# The other releases' root file systems and the oldest Kubernetes' servers are built in the
# background too, after those, and the compatibility cloud started (log:
# _output/test/compat.log).
set -euo pipefail

# shellcheck source=hack/lib/uses-local-servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/uses-local-servers.sh"

# compat_tests FILE: the -run pattern of the tests FILE lists (after checking that each
# exists).
compat_tests() {
  local names name
  names="$(sed 's/#.*//' "$1" | awk 'NF {print $1}')"
  for name in ${names}; do
    grep -q "^func ${name}(" test/e2e/*_test.go || { log "ERROR: $1 names ${name}, which is no test in test/e2e"; return 1; }
  done
  echo "^($(tr '\n' '|' <<<"${names}" | sed 's/|$//'))\$"
}

mode="${1:-}"
case "${mode}" in
  all | short) ;;
  compat-openstack | compat-kubernetes) compat_tests "test/e2e/${mode}.txt"; exit ;;
  *) echo "usage: $0 all|short|compat-openstack|compat-kubernetes" >&2; exit 2 ;;
esac

out_dir=_output/test
mkdir -p "${out_dir}"
servers_log="${out_dir}/servers.log"
servers_state="${out_dir}/servers.state"
installed="${out_dir}/packages.installed"
servers_up="${out_dir}/servers.up"
compat_log="${out_dir}/compat.log"
compat_ready="${out_dir}/compat.ready"
compat_kube_ready="${out_dir}/compat-kube.ready"
node_log="${out_dir}/node.log"
compat_openstack_log="${out_dir}/compat-openstack.log"
runs_file="${out_dir}/runs"
rm -f "${servers_state}" "${installed}" "${servers_up}" "${compat_ready}" "${compat_kube_ready}" \
  "${runs_file}" "${node_log}.result" "${compat_openstack_log}.result"
# The default release (hack/lib/openstack-release.sh), and those the compatibility sets run on.
export OPENSTACK_RELEASE="${OPENSTACK_RELEASE:-2025.1}"
compat_releases=()
for r in 2022.2 2025.1 newest; do
  [[ "${r}" == "${OPENSTACK_RELEASE}" ]] || compat_releases+=("${r}")
done
export KEYSTONE_TOKEN_EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-45}"
# The compatibility cloud's ports and state (see the header): hack/local-neutron.sh's and
# hack/local-keystone.sh's settings, and what hack/e2e.sh passes on to the tests.
compat_cloud=(
  NEUTRON_PORT=39696 NEUTRON_KEYSTONE_PORT=39697 NEUTRON_REGION_TWO_PORT=39698
  KEYSTONE_PORT=35000 KEYSTONE_SERVICE_PORT=35001
  NEUTRON_STATE_DIR="${PWD}/_output/local/compat-cloud/neutron"
  KEYSTONE_STATE_DIR="${PWD}/_output/local/compat-cloud/keystone"
)

# The background start: packages first (apt-get one at a time), then the servers; it
# adds each server it started to servers.state as soon as it runs, so that the stop on
# exit also stops those a later start's failure left behind.
start_in_background() {
  hack/prometheus.sh install
  hack/lua.sh install
  # The release's root file system (on a new machine: downloading and unpacking, which
  # mostly waits on the registry and the disk) is built beside the compiles of helm and
  # the Kubernetes servers, after the host's own apt-get installs.
  hack/local-neutron.sh install &
  local root_pid=$!
  hack/helm.sh build
  touch "${installed}"
  local kube neutron keystone=0
  kube="$(start_if_needed "the local kube-apiserver" hack/local-kube.sh)"
  echo "started_kube=${kube}" >>"${servers_state}"
  wait "${root_pid}" || { log "ERROR: building the root file system of OpenStack ${OPENSTACK_RELEASE} failed (above)"; return 1; }
  neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"
  echo "started_neutron=${neutron}" >>"${servers_state}"
  hack/local-keystone.sh status >/dev/null 2>&1 || keystone=1
  # Before the start: one that fails half-way is stopped too (stopping is idempotent).
  echo "started_keystone=${keystone}" >>"${servers_state}"
  hack/local-keystone.sh start >/dev/null
  touch "${servers_up}"
}

# build_compat_in_background: the other releases' roots and the oldest Kubernetes'
# servers, which the compatibility sets start after the main end-to-end tests, and the
# compatibility cloud in the first other release. The oldest Kubernetes first: its set
# runs first (beside the node step).
build_compat_in_background() {
  local r
  LOCAL_KUBE_VERSION=oldest hack/local-kube.sh build
  touch "${compat_kube_ready}"
  for r in "${compat_releases[@]}"; do
    OPENSTACK_RELEASE="${r}" hack/local-neutron.sh install
  done
  # Before the start: one that fails half-way is stopped too (stopping is idempotent).
  echo "started_compat_cloud=1" >>"${servers_state}"
  compat_cloud_start "${compat_releases[0]}"
  touch "${compat_ready}"
}

# compat_cloud_start RELEASE: the compatibility cloud's Neutron and Keystone, in RELEASE
# (a running one of another release is restarted in it).
compat_cloud_start() {
  env "${compat_cloud[@]}" OPENSTACK_RELEASE="$1" hack/local-neutron.sh start >/dev/null
  env "${compat_cloud[@]}" OPENSTACK_RELEASE="$1" hack/local-keystone.sh start >/dev/null
}

# compat_cloud_stop: stops the compatibility cloud's servers (idempotent).
compat_cloud_stop() {
  env "${compat_cloud[@]}" hack/local-keystone.sh stop || true
  env "${compat_cloud[@]}" hack/local-neutron.sh stop-keystone || true
  env "${compat_cloud[@]}" hack/local-neutron.sh stop || true
}

# compat_openstack_sets PATTERN: once the compatibility builds are done, the OpenStack
# compatibility set (the -run PATTERN) on the compatibility cloud in each other release in
# turn; runs in the background (step_beside) and hands its steps over in LOG.steps.
compat_openstack_sets() {
  local r rc=0 first=1
  steps=()
  step "compat builds (background, after the above)" \
    wait_for_background "${compat_ready}" "${compat_pid}" "${compat_log}" || rc=$?
  if ((rc == 0)); then
    for r in "${compat_releases[@]}"; do
      if ((first == 0)); then
        log "restarting the compatibility cloud in OpenStack ${r}"
        step "compatibility cloud restarted in OpenStack ${r}" compat_cloud_start "${r}" || { rc=1; continue; }
      fi
      first=0
      step "compat set, OpenStack ${r}" e2e_run "compat set" "go-test-openstack-${r}.log" \
        OPENSTACK_RELEASE="${r}" "${compat_cloud[@]}" -run "$1" || rc=$?
    done
  fi
  printf '%s\n' "${steps[@]}" >"${compat_openstack_log}.steps"
  return "${rc}"
}

servers_pid=
compat_pid=
# The PIDs of the steps running in the background (step_beside), by their log.
declare -A beside_pids=()
steps=()
cleanup() {
  local rc=$?
  if [[ -n "${servers_pid}" ]] && kill -0 "${servers_pid}" 2>/dev/null; then
    log "waiting for the background start of the servers to finish, to stop them"
    wait "${servers_pid}" || true
  fi
  local log_file
  for log_file in "${!beside_pids[@]}"; do
    if kill -0 "${beside_pids[${log_file}]}" 2>/dev/null; then
      log "waiting for the background step (output: ${log_file}) to finish, to stop the servers"
      wait "${beside_pids[${log_file}]}" || true
    fi
  done
  if [[ -n "${compat_pid}" ]] && kill -0 "${compat_pid}" 2>/dev/null; then
    log "waiting for the background builds of the compatibility sets to finish"
    wait "${compat_pid}" || true
  fi
  local cpu
  cpu="$(servers_cpu)"
  if [[ -f "${servers_state}" ]]; then
    # shellcheck disable=SC1090
    source "${servers_state}"
    stop_started_servers
    [[ "${started_compat_cloud:-0}" != 1 ]] || compat_cloud_stop
  fi
  if [[ -s "${runs_file}" ]]; then
    log "end-to-end tests per OpenStack release and Kubernetes version:"
    sed 's/^/  /' "${runs_file}" >&2
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

# step_beside NAME LOG COMMAND...: starts COMMAND in the background, its output in LOG;
# step_joined LOG then waits for it, prints LOG, and records it as step does (its seconds
# from its start; its CPU s its own; its machine CPU s include what ran beside it), after
# the steps COMMAND recorded itself (in LOG.steps, when it writes one).
step_beside() {
  local name=$1 log_file=$2
  shift 2
  log "${name}: started in the background beside the next steps (output: ${log_file}, printed when it ends)"
  rm -f "${log_file}.result" "${log_file}.steps"
  (
    start=${SECONDS} rc=0 me=${BASHPID}
    own0=$(awk '{print $16 + $17}' "/proc/${me}/stat")
    machine0=$(machine_cpu_ticks)
    "$@" >"${log_file}" 2>&1 || rc=$?
    printf '%s\n' "${rc}" "$(printf '%-44s %7d %7d %15d%s' "${name}" $((SECONDS - start)) \
      $((($(awk '{print $16 + $17}' "/proc/${me}/stat") - own0) / hz)) $((($(machine_cpu_ticks) - machine0) / hz)) \
      "$([[ ${rc} == 0 ]] || echo "  FAILED (exit ${rc})")")" >"${log_file}.result.tmp"
    mv "${log_file}.result.tmp" "${log_file}.result"
  ) &
  beside_pids[${log_file}]=$!
}

step_joined() {
  local log_file=$1 rc start=${SECONDS}
  wait "${beside_pids[${log_file}]}" || true
  unset "beside_pids[${log_file}]"
  log "waited $((SECONDS - start)) s for the background step after the steps beside it"
  log "the output of the step that ran in the background (${log_file}):"
  cat "${log_file}" >&2 || true
  if [[ -f "${log_file}.steps" ]]; then
    mapfile -t -O "${#steps[@]}" steps <"${log_file}.steps"
  fi
  if [[ ! -f "${log_file}.result" ]]; then
    log "ERROR: the background step left no result"
    return 1
  fi
  rc="$(sed -n 1p "${log_file}.result")"
  steps+=("$(sed -n 2p "${log_file}.result")")
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

# wait_for_background WHAT [PID LOG]: waits until the background start (or the one of PID,
# logging to LOG) wrote its file WHAT, and fails when it ended without.
wait_for_background() {
  local file=$1 pid=${2:-${servers_pid}} log_file=${3:-${servers_log}}
  while [[ ! -f "${file}" ]]; do
    if ! kill -0 "${pid}" 2>/dev/null; then
      wait "${pid}" || true
      [[ -f "${file}" ]] && return 0
      log "ERROR: the background start failed; its log, ${log_file}:"
      tail -n 40 "${log_file}" >&2
      return 1
    fi
    sleep 0.5
  done
}

# e2e_run WHAT LOG [NAME=VALUE...] [ARG...]: hack/e2e.sh ARGs, in the environment NAME=VALUE
# (OPENSTACK_RELEASE, LOCAL_KUBE_VERSION, the compatibility cloud's), with its output in
# _output/e2e/LOG, and a line in the summary's file (runs_file): the OpenStack release and
# Kubernetes version it ran on (hack/e2e.sh writes them to LOG.servers), and how many
# top-level tests passed, failed and were skipped.
e2e_run() {
  local what=$1 log_name=$2 rc=0 file counts openstack kube envs=()
  shift 2
  while [[ $# -gt 0 && "$1" == [A-Z_]*=* ]]; do
    envs+=("$1")
    shift
  done
  file="_output/e2e/${log_name}"
  env "${envs[@]}" E2E_LOG="${file}" hack/e2e.sh "$@" || rc=$?
  counts="$(awk '/^--- PASS/ {p++} /^--- FAIL/ {f++} /^--- SKIP/ {s++}
    END {printf "%d run: %d passed, %d failed, %d skipped", p + f + s, p, f, s}' "${file}" 2>/dev/null || echo "no log")"
  openstack="$(sed -n 's/^e2e: OpenStack: //p' "${file}.servers" 2>/dev/null | head -n 1)"
  kube="$(sed -n 's/^e2e: Kubernetes: //p' "${file}.servers" 2>/dev/null | head -n 1)"
  printf '%-22s %s; Kubernetes %s; %s\n' "${what}:" "${counts}" "${kube:-unknown}" "${openstack:-OpenStack ${OPENSTACK_RELEASE}}" >>"${runs_file}"
  return "${rc}"
}


began=${SECONDS}
own_began=$(children_cpu_ticks)
machine_began=$(machine_cpu_ticks)
log "starting the packages and local servers of the end-to-end tests in the background (log: ${servers_log})"
start_in_background >"${servers_log}" 2>&1 &
servers_pid=$!

if [[ "${mode}" == all ]]; then
  (wait_for_background "${servers_up}" >/dev/null 2>&1; build_compat_in_background) >"${compat_log}" 2>&1 &
  compat_pid=$!
fi

step "make verify" make --no-print-directory verify
step "make unit" make --no-print-directory unit
if [[ "${mode}" == all ]]; then
  step "make bundle (the OLM bundle, validated)" make --no-print-directory bundle
  step "packages installed (background)" wait_for_background "${installed}"
  step "make monitoring" make --no-print-directory monitoring
fi
step "servers up (background, after the above)" wait_for_background "${servers_up}"
if [[ "${mode}" == all ]]; then
  rc=0
  openstack_set="$(compat_tests test/e2e/compat-openstack.txt)"
  kube_set="$(compat_tests test/e2e/compat-kubernetes.txt)"
  step "end-to-end tests (hack/e2e.sh)" e2e_run "every end-to-end test" go-test.log || rc=$?
  # The node step, the OpenStack sets and the oldest Kubernetes' set side by side (see the
  # header).
  step_beside "the controller on a real node (hack/node-e2e.sh)" "${node_log}" hack/node-e2e.sh
  step_beside "compat sets, OpenStack ${compat_releases[*]} (beside the node)" "${compat_openstack_log}" \
    compat_openstack_sets "${openstack_set}"
  if step "compat build, oldest Kubernetes (background)" wait_for_background "${compat_kube_ready}" "${compat_pid}" "${compat_log}"; then
    step "compat set, oldest Kubernetes (beside the node)" e2e_run "compat set" go-test-kubernetes-oldest.log \
      LOCAL_KUBE_VERSION=oldest -run "${kube_set}" || rc=$?
  else
    rc=1
  fi
  step_joined "${compat_openstack_log}" || rc=$?
  step_joined "${node_log}" || rc=$?
  [[ "${rc}" == 0 ]] || exit "${rc}"
else
  step "end-to-end story (TestWalkingSkeleton)" e2e_run "TestWalkingSkeleton" go-test.log -run '^TestWalkingSkeleton$'
fi
steps+=("$(printf '%-44s %7d %7d %15d' "in all" $((SECONDS - began)) \
  $((($(children_cpu_ticks) - own_began) / hz)) $((($(machine_cpu_ticks) - machine_began) / hz)))")
