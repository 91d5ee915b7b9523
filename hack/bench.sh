#!/usr/bin/env bash
# Measures the controller against a raw gophercloud loop doing the same Neutron work, on a
# real kube-apiserver and a real neutron-server on loopback, and prints the results.
#
# Usage: [BASELINE=<commit>] hack/bench.sh [driver flags, e.g. -n 100 -workers 4 -rounds 3 -restart-n 1000]
#
# Starts hack/local-kube.sh, hack/local-neutron.sh and hack/local-keystone.sh (Keystone and
# the Keystone-authenticated neutron-server, for the tenants stage) when they are not
# already running and stops (on exit) only the ones it started, installs the CRD, builds the controller
# and the driver (test/bench), and runs the driver. Flags in $BENCH_ARGS come before the
# command-line ones (`make bench BENCH_ARGS="-n 10 -rounds 1"`). `go run ./test/bench
# -help` lists the driver's flags. The cluster must hold no Network objects of its own:
# the controller reconciles every namespace.
#
# Environment:
#   BENCH_ARGS         extra driver flags
#   BASELINE           a commit (hash, tag, branch) whose controller runs in every round of the
#                      one-subnet form beside the current one (driver flags -baseline,
#                      -baseline-commit; also -scale-baseline); the dual-stack and routed
#                      stages measure the current build only. Built once, from `git archive`
#                      of the commit, into _output/baseline/<full hash>/network-controller,
#                      and reused from there.
#   NEUTRON_PORT       port of the local Neutron (default 19696, as hack/local-neutron.sh)
#   NEUTRON_STATE_DIR  its state folder (default _output/local/neutron), for its request log
set -euo pipefail

# shellcheck source=hack/lib/uses-local-servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/uses-local-servers.sh"

baseline_src=""

cleanup() {
  local rc=$?
  stop_started_servers
  [[ -z "${baseline_src}" ]] || rm -rf "${baseline_src}"
  exit "${rc}"
}
trap cleanup EXIT

# build_baseline COMMIT: sets baseline_bin to COMMIT's controller binary, built like the
# current one (from its own vendor/) the first time, from a `git archive` of it.
build_baseline() {
  local full dir bin
  full="$(git rev-parse --verify --quiet "$1^{commit}")" || die "BASELINE=$1 is not a commit of this repository"
  dir="_output/baseline/${full}"
  bin="${dir}/network-controller"
  if [[ -x "${bin}" ]]; then
    log "baseline: reusing the controller of $1 (${full:0:7}) built in ${bin}"
  else
    log "baseline: building the controller of $1 (${full:0:7}) into ${bin}"
    mkdir -p "${dir}"
    baseline_src="$(mktemp -d "${ROOT}/_output/baseline/src.XXXXXX")"
    git archive --format=tar "${full}" | tar -x -C "${baseline_src}"
    (cd "${baseline_src}" && CGO_ENABLED=0 "${GO}" build -trimpath -o "${ROOT}/${bin}.tmp" .) >&2
    mv "${ROOT}/${bin}.tmp" "${ROOT}/${bin}"
    rm -rf "${baseline_src}"
    baseline_src=""
  fi
  baseline_bin="${bin}"
}

baseline_flags=()
if [[ -n "${BASELINE:-}" ]]; then
  build_baseline "${BASELINE}"
  baseline_flags=(-baseline "${baseline_bin}" -scale-baseline "${baseline_bin}"
    -baseline-commit "commit $(git rev-parse --short "${BASELINE}^{commit}")")
fi

started_kube="$(start_if_needed "the local kube-apiserver" hack/local-kube.sh)"
started_neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"
if ! hack/local-keystone.sh status >/dev/null 2>&1; then
  started_keystone=1
fi
log "starting the local Keystone"
hack/local-keystone.sh start >/dev/null
eval "$(hack/local-keystone.sh env | sed 's/^/export /')"

export KUBECONFIG="${ROOT}/_output/local/kube/kubeconfig"
export NEUTRON_ENDPOINT="http://127.0.0.1:${NEUTRON_PORT:-19696}/"
neutron_log="${NEUTRON_STATE_DIR:-${ROOT}/_output/local/neutron}/log/neutron-server.log"
[[ -f "${neutron_log}" ]] || { log "no neutron-server request log at ${neutron_log} (set NEUTRON_STATE_DIR)"; exit 1; }

log "installing the CRD"
kubectl --kubeconfig "${KUBECONFIG}" apply -f crd/ >&2
kubectl --kubeconfig "${KUBECONFIG}" wait --for=condition=Established --timeout=60s crd/networks.samplecrd.k8s.io >&2

log "building the controller and the bench driver"
mkdir -p _output/bin
CGO_ENABLED=0 "${GO}" build -trimpath -o _output/bin/network-controller .
"${GO}" build -o _output/bin/network-controller-bench ./test/bench

commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  commit+="+uncommitted changes"
fi

# shellcheck disable=SC2086 # BENCH_ARGS is a list of flags
_output/bin/network-controller-bench \
  -kubeconfig "${KUBECONFIG}" -neutron-endpoint "${NEUTRON_ENDPOINT}" -neutron-log "${neutron_log}" \
  -clouds-yaml "${KEYSTONE_CLOUDS_YAML}" -keystone-access-log "${KEYSTONE_ACCESS_LOG}" \
  -neutron-keystone-log "${NEUTRON_KEYSTONE_LOG}" \
  -controller _output/bin/network-controller -log-dir _output/bench -commit "commit ${commit}" \
  ${baseline_flags[@]+"${baseline_flags[@]}"} ${BENCH_ARGS:-} "$@"
