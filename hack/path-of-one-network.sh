#!/usr/bin/env bash
# Measures which files' code runs when one Network is created until Ready: the table of
# "The path of one Network" in docs/design.md. Prints it (a Markdown table, one row a
# package, and a line "N files of M packages") on stdout; progress goes to stderr.
#
# Usage: hack/path-of-one-network.sh [--write]
#
#   --write  also rewrite what lies between <!-- path-of-one-network:begin --> and
#            <!-- path-of-one-network:end --> in docs/design.md: the sentence with the
#            counts and the date, the table, and the count of pkg/reconcile's files.
#
# How: the controller is built with coverage (go build -cover -covermode=atomic
# -coverpkg=./...) and run on the local servers as `make run` runs it (the local
# kube-apiserver's admin kubeconfig; -os-cloud k8s, the member-role user of project k8s
# through the local Keystone), RUNS times each way, in turns:
#   idle  started with a GOCOVERDIR of its own, left RUN_SECONDS after it logs "Started
#         workers", stopped with SIGTERM;
#   one   the same, but right after "Started workers" example/example-network.yaml (the
#         one-subnet form, no credentials Secret: the controller's own cloud) is created
#         in the run's namespace and waited for until Ready=True; the controller still
#         gets RUN_SECONDS in all before SIGTERM. An uncounted run of the same build then
#         deletes the Network.
# The files are those of the code blocks that every "one" run ran more often than every
# "idle" run (`go tool covdata textfmt` of each), less vendor/, pkg/client/ and
# zz_generated* files. Both kinds last as long, so that periodic work (the Lease's
# renewals) counts alike; the repetition drops the blocks whose counts vary from run to
# run by more than the Network adds (the handlers of the cluster's ClusterIdentities and
# namespaces, whose counts depend on the order the informers' events come in): with one
# run each way, every second measurement listed a file or two more or less; with three, a
# file whose blocks the Network runs once among dozens of such runs (pkg/scope/scope.go,
# pkg/credentials/requeue/grants.go) may still come or go.
#
# Nothing is left behind: the runs use a fresh namespace (created before the first, where
# the Lease and the refusals ConfigMap live too) and a fresh -cluster-id, so that they
# touch no other Neutron resources; at the end the namespace is deleted and Neutron is
# checked for anything of that cluster ID (deleted, with a warning, if found). The same
# happens on failure or Ctrl-C. The controller reconciles every namespace: the script
# refuses to run while the cluster holds Networks of its own.
#
# Starts hack/local-kube.sh, hack/local-neutron.sh and hack/local-keystone.sh when they
# do not run (as hack/bench.sh does) and stops on exit only those it started; installs
# the CRDs (kubectl apply -f crd/). About 2 minutes when the servers run, 8 more when it
# starts them.
#
# Environment:
#   RUNS          runs of each kind (default 3)
#   RUN_SECONDS   how long each run lasts after "Started workers" (default 10)
#   SERVERS_FROM  the checkout whose hack/local-*.sh and _output/local run the local
#                 servers (default: this one); a git worktree measures its own tree on
#                 the main checkout's servers with SERVERS_FROM=<main checkout>
#   NEUTRON_PORT  port of the local noauth Neutron (default 19696, as hack/local-neutron.sh)
#   KEEP_WORK     1: keep the scratch folder (the coverage data of each run, their
#                 textfmt, the controllers' logs) and say where it is
#   OPENSTACK_RELEASE, KEYSTONE_TOKEN_EXPIRATION  as hack/local-keystone.sh
set -euo pipefail

# shellcheck source=hack/lib/uses-local-servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/uses-local-servers.sh"

DOC=docs/design.md
BEGIN_MARK='<!-- path-of-one-network:begin -->'
END_MARK='<!-- path-of-one-network:end -->'
NETWORK_FILE=example/example-network.yaml

write=0
case "${1:-}" in
  '') ;;
  --write) write=1 ;;
  *) echo "usage: hack/path-of-one-network.sh [--write]" >&2; exit 2 ;;
esac
RUNS="${RUNS:-3}"
RUN_SECONDS="${RUN_SECONDS:-10}"
for v in RUNS RUN_SECONDS; do
  case "${!v}" in '' | *[!0-9]* | 0) die "${v} must be a positive number, got '${!v}'" ;; esac
done
servers="$(cd "${SERVERS_FROM:-${ROOT}}" && pwd)"
[[ -x "${servers}/hack/local-kube.sh" ]] || die "SERVERS_FROM=${servers} has no hack/local-kube.sh"
if [[ "${write}" == 1 ]] && ! { grep -qxF "${BEGIN_MARK}" "${DOC}" && grep -qxF "${END_MARK}" "${DOC}"; }; then
  die "${DOC} lacks the lines ${BEGIN_MARK} and ${END_MARK}"
fi

network="$(sed -n 's/^  name: *//p' "${NETWORK_FILE}" | head -n 1)"
[[ -n "${network}" ]] || die "no metadata.name in ${NETWORK_FILE}"
suffix="$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
namespace="path-of-one-network-${suffix}"
cluster_id="path-of-one-network-${suffix}"
work="$(mktemp -d "${TMPDIR:-/tmp}/path-of-one-network.XXXXXX")"
ns_created=0
controller_pid=

# stop_controller: SIGTERM to the running controller, and waits for it (its coverage
# counters are written as it exits).
stop_controller() {
  [[ -n "${controller_pid}" ]] || return 0
  kill -TERM "${controller_pid}" 2>/dev/null || true
  wait "${controller_pid}" 2>/dev/null || true
  controller_pid=
}

# start_controller NAME COVERDIR: starts the coverage build in the background, its log in
# ${work}/NAME.log, and waits until it logs "Started workers" (then asks /readyz once, so
# that each run answers it as often). Fails, saying why, when it does not get there.
start_controller() {
  local name=$1 coverdir=$2 log_file="${work}/$1.log" i health metrics
  health="127.0.0.1:$(free_port)"
  metrics="127.0.0.1:$(free_port)"
  mkdir -p "${coverdir}"
  GOCOVERDIR="${coverdir}" OS_CLIENT_CONFIG_FILE="${clouds_yaml}" "${work}/network-controller" \
    -kubeconfig "${KUBECONFIG}" -os-cloud k8s -cluster-id "${cluster_id}" \
    -leader-elect-namespace "${namespace}" \
    -health-probe-bind-address "${health}" -metrics-bind-address "${metrics}" \
    -v=2 >"${log_file}" 2>&1 </dev/null &
  controller_pid=$!
  for ((i = 0; i < 1200; i++)); do
    if grep -q '"Started workers"' "${log_file}"; then
      curl -sf -o /dev/null --max-time 5 "http://${health}/readyz" && return 0
      tail -n 20 "${log_file}" >&2
      log "${name}: /readyz does not answer 200 after \"Started workers\""
      return 1
    fi
    if ! kill -0 "${controller_pid}" 2>/dev/null; then
      controller_pid=
      tail -n 30 "${log_file}" >&2
      log "${name}: the controller exited before it started its workers"
      return 1
    fi
    sleep 0.1
  done
  tail -n 30 "${log_file}" >&2
  log "${name}: the controller did not start its workers within 120 s"
  return 1
}

# free_port: a TCP port of 127.0.0.1 nothing listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# neutron_leftovers: the IDs of the networks, subnets and routers of the run's cluster
# ID, one a line, as "networks ID", "subnets ID" and "routers ID".
neutron_leftovers() {
  local base="http://127.0.0.1:${NEUTRON_PORT:-19696}/v2.0" description
  description="Managed by network-controller for cluster ${cluster_id}"
  curl -sf --max-time 30 "${base}/networks?tags=$(jq -rn --arg v "k8s-cluster=${cluster_id}" '$v|@uri')" |
    jq -r '.networks[] | "networks \(.id)"'
  curl -sf --max-time 30 "${base}/routers?description=$(jq -rn --arg v "${description}" '$v|@uri')" |
    jq -r '.routers[] | "routers \(.id)"'
  curl -sf --max-time 30 "${base}/subnets?description=$(jq -rn --arg v "${description}" '$v|@uri')" |
    jq -r '.subnets[] | "subnets \(.id)"'
}

# delete_network: deletes the Network, when there is one, with an uncounted run of the
# controller. Fails when it is still there.
delete_network() {
  kubectl get network -n "${namespace}" "${network}" >/dev/null 2>&1 || return 0
  log "deleting the Network ${namespace}/${network} with an uncounted controller run"
  if start_controller cleanup "${work}/cover-cleanup"; then
    kubectl delete network -n "${namespace}" "${network}" --wait=true --timeout=120s >&2 ||
      log "WARNING: the Network was not deleted within 120 s"
  fi
  stop_controller
  ! kubectl get network -n "${namespace}" "${network}" >/dev/null 2>&1
}

# clean_up_run: deletes the Network (delete_network), then the namespace, and whatever
# Neutron still holds of the run's cluster ID.
clean_up_run() {
  local kind id left
  [[ "${ns_created}" == 1 ]] || return 0
  delete_network || true
  log "deleting the namespace ${namespace}"
  if kubectl get network -n "${namespace}" "${network}" >/dev/null 2>&1; then
    log "WARNING: removing the Network's finalizer: its Neutron resources are deleted below"
    kubectl patch network -n "${namespace}" "${network}" --type=merge -p '{"metadata":{"finalizers":null}}' >&2 || true
  fi
  kubectl delete namespace "${namespace}" --wait=true --timeout=120s >&2 ||
    log "WARNING: namespace ${namespace} is not gone after 120 s"
  left="$(neutron_leftovers)" || { log "WARNING: could not list Neutron's resources of cluster ${cluster_id}"; return 0; }
  while read -r kind id; do
    [[ -n "${kind}" ]] || continue
    log "WARNING: Neutron still holds ${kind} ${id} of cluster ${cluster_id}; deleting it"
    if [[ "${kind}" == routers ]]; then
      curl -sf -X PUT --max-time 30 -H 'Content-Type: application/json' \
        -d '{"external_gateway_info":{}}' "http://127.0.0.1:${NEUTRON_PORT:-19696}/v2.0/routers/${id}" >/dev/null || true
    fi
    curl -sf -X DELETE --max-time 60 "http://127.0.0.1:${NEUTRON_PORT:-19696}/v2.0/${kind}/${id}" >/dev/null ||
      log "WARNING: could not delete ${kind} ${id}"
  done <<<"${left}"
  ns_created=0
}

cleanup() {
  local rc=$?
  trap - INT TERM
  stop_controller
  clean_up_run || true
  stop_started_servers_of "${servers}"
  if [[ "${KEEP_WORK:-0}" == 1 ]]; then
    log "kept ${work}"
  else
    rm -rf "${work}"
  fi
  exit "${rc}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stop_started_servers_of CHECKOUT: stop_started_servers, with CHECKOUT's scripts.
stop_started_servers_of() {
  (cd "$1" && stop_started_servers)
}

started_kube="$(start_if_needed "the local kube-apiserver" "${servers}/hack/local-kube.sh")"
started_neutron="$(start_if_needed "the local Neutron" "${servers}/hack/local-neutron.sh")"
if ! "${servers}/hack/local-keystone.sh" status >/dev/null 2>&1; then
  started_keystone=1
fi
log "starting the local Keystone (a no-op when it runs)"
"${servers}/hack/local-keystone.sh" start >/dev/null
clouds_yaml="$("${servers}/hack/local-keystone.sh" env | sed -n 's/^KEYSTONE_CLOUDS_YAML=//p')"
[[ -f "${clouds_yaml}" ]] || die "hack/local-keystone.sh env names no clouds.yaml"
KUBECONFIG="$("${servers}/hack/local-kube.sh" kubeconfig)"
export KUBECONFIG

log "installing the CRDs"
kubectl apply -f crd/ >&2
kubectl wait --for condition=Established --timeout=60s crd/networks.samplecrd.k8s.io crd/clusteridentities.samplecrd.k8s.io >&2
existing="$(kubectl get networks --all-namespaces --no-headers -o custom-columns=NS:.metadata.namespace,NAME:.metadata.name)"
if [[ -n "${existing}" ]]; then
  printf '%s\n' "${existing}" >&2
  die "the cluster holds Networks (above): the controller, which reconciles every namespace, would measure them too"
fi

log "building the controller with coverage into ${work}"
start=${SECONDS}
CGO_ENABLED=0 "${GO}" build -trimpath -cover -covermode=atomic -coverpkg=./... -o "${work}/network-controller" .
log "built in $((SECONDS - start)) s"
module="$("${GO}" list -m)"

kubectl create namespace "${namespace}" >&2
ns_created=1

# sleep_rest MS: sleeps what is left of RUN_SECONDS after MS milliseconds.
sleep_rest() {
  local left=$((RUN_SECONDS * 1000 - $1))
  ((left > 0)) || return 0
  sleep "$((left / 1000)).$(printf '%03d' $((left % 1000)))"
}

for ((i = 1; i <= RUNS; i++)); do
  log "run ${i} of ${RUNS}, idle: no Network, ${RUN_SECONDS} s after \"Started workers\""
  start_controller "idle-${i}" "${work}/cover-idle-${i}" || exit 1
  sleep "${RUN_SECONDS}"
  stop_controller

  log "run ${i} of ${RUNS}, one: ${NETWORK_FILE} until Ready, ${RUN_SECONDS} s after \"Started workers\""
  start_controller "one-${i}" "${work}/cover-one-${i}" || exit 1
  started_at=${EPOCHREALTIME}
  kubectl apply -n "${namespace}" -f "${NETWORK_FILE}" >&2
  kubectl wait -n "${namespace}" --for=condition=Ready=True --timeout=120s "network/${network}" >&2
  ready_ms=$(((${EPOCHREALTIME/./} - ${started_at/./}) / 1000))
  log "run ${i} of ${RUNS}, one: Ready=True ${ready_ms} ms after \"Started workers\""
  if ((ready_ms >= RUN_SECONDS * 1000)); then
    log "WARNING: Ready took longer than RUN_SECONDS: this run lasts longer than the idle ones, and periodic work may count as the Network's (raise RUN_SECONDS)"
  fi
  sleep_rest "${ready_ms}"
  stop_controller
  delete_network || die "could not delete the Network between runs"
done
clean_up_run

runs=()
for kind in idle one; do
  for ((i = 1; i <= RUNS; i++)); do
    compgen -G "${work}/cover-${kind}-${i}/covcounters.*" >/dev/null || die "run ${i}, ${kind}, wrote no coverage counters"
    "${GO}" tool covdata textfmt -i="${work}/cover-${kind}-${i}" -o="${work}/${kind}-${i}.txt"
    runs+=("${work}/${kind}-${i}.txt")
  done
done

# The files of the blocks every "one" run ran more often than every "idle" run, relative
# to the repository, as "<package dir> <file>" ("." for the root), sorted.
awk -v prefix="${module}/" -v runs="${RUNS}" '
  FNR == 1 { run++; next } # mode:
  {
    block = $1; sub(/:.*/, "", $1); file = $1
    if (substr(file, 1, length(prefix)) != prefix) next
    fileof[block] = substr(file, length(prefix) + 1)
    count[run, block] += $NF
  }
  END {
    for (b in fileof) {
      idle = 0; one = -1
      for (r = 1; r <= runs; r++) if (count[r, b] > idle) idle = count[r, b]
      for (r = runs + 1; r <= 2 * runs; r++) if (one < 0 || count[r, b] + 0 < one) one = count[r, b] + 0
      if (one > idle) hit[fileof[b]] = 1
    }
    for (f in hit) {
      if (f ~ /^vendor\// || f ~ /^pkg\/client\// || f ~ /(^|\/)zz_generated[^\/]*$/) continue
      dir = f; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."
      print dir, f
    }
  }' "${runs[@]}" | LC_ALL=C sort >"${work}/files"
[[ -s "${work}/files" ]] || die "the runs with the Network ran no block more often than those without"

files_n="$(wc -l <"${work}/files")"
packages_n="$(cut -d' ' -f1 "${work}/files" | uniq | wc -l)"
reconcile_n="$(awk '$1 == "pkg/reconcile"' "${work}/files" | wc -l)"
date="$(date -u +%F)"

# The table: root first, then the packages in path order; the files in name order.
awk '
  function flush() { if (dir != "") print "| " (dir == "." ? "root" : "`" dir "`") " | " row " |" }
  $1 != dir { flush(); dir = $1; row = "" }
  { row = row (row == "" ? "" : ", ") "`" $2 "`" }
  END { flush() }
  BEGIN { print "| package | files |"; print "|---|---|" }' "${work}/files" >"${work}/table"

cat "${work}/table"
echo
echo "${files_n} files of ${packages_n} packages"

if [[ "${write}" == 1 ]]; then
  cat >"${work}/section" <<EOF
Every file whose code runs on that path, measured rather than read by
\`hack/path-of-one-network.sh\`: a build with coverage (\`go build -cover -coverpkg=./...\`)
run on the local servers ${RUNS} times each way, started and stopped with no Network, and
creating one Network until Ready; the code blocks that every run of the second kind ran more
often than every run of the first (\`go tool covdata textfmt\` of each), less vendor/ and
generated code (\`pkg/client/\`, \`zz_generated*\`), are in ${files_n} files of ${packages_n} packages
(measured on ${date}):

$(cat "${work}/table")

The logic of a Network lives in the ${reconcile_n} files of \`pkg/reconcile\`; the
$((files_n - reconcile_n)) others are the model, the store, the transport, the pure helpers it calls and
the informers' other handlers, each visited for one concern.
EOF
  awk -v begin="${BEGIN_MARK}" -v end="${END_MARK}" -v section="${work}/section" '
    $0 == begin { print; while ((getline line < section) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip' "${DOC}" >"${work}/design.md"
  cat "${work}/design.md" >"${DOC}"
  log "rewrote the table in ${DOC}"
fi
