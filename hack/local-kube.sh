#!/usr/bin/env bash
# Runs a real, local Kubernetes control plane (etcd + kube-apiserver +
# kube-controller-manager: no kubelet or scheduler, so Pods stay Pending) on
# 127.0.0.1 for the end-to-end tests and `make run`.
#
# Usage: hack/local-kube.sh build|start|stop|status|reset|kubeconfig|serve-apiserver PORT
#
#   build   build etcd, kube-apiserver and kube-controller-manager into
#           _output/bin (each skipped when its stamp of hack/tools matches)
#   start   build if needed, create PKI/tokens once, start etcd,
#           kube-apiserver and kube-controller-manager, wait until ready,
#           write the kubeconfig
#   stop    stop the three servers, kube-controller-manager first (TERM, then
#           KILL after 10 s)
#   status  exit 0 when running and ready, 1 otherwise
#   reset   stop and delete _output/local/kube (binaries are kept)
#   kubeconfig  print the path of the admin kubeconfig that start writes
#   serve-apiserver PORT [ADDRESS]  run one more kube-apiserver on the running etcd, with
#           the same flags and certificates, on PORT (of ADDRESS, default 127.0.0.1), in
#           the foreground (exec: its PID is this one's; stop it with SIGTERM). A test
#           that restarts the apiserver does it to one of its own like this, so that the
#           others keep theirs; hack/local-node.sh serves its Pods one on its bridge.
#
# Environment:
#   LOCAL_KUBE_PORT       kube-apiserver secure port          (default 16443)
#   LOCAL_KCM_PORT        kube-controller-manager secure port (default 16257)
#   LOCAL_ETCD_PORT       etcd client port                    (default 12379)
#   LOCAL_ETCD_PEER_PORT  etcd peer port                      (default 12380)
#   LOCAL_KUBE_TIMEOUT    readiness timeout in seconds        (default 90)
#   LOCAL_KUBE_SHARDED_WATCH  the apiserver's ShardedListAndWatch feature gate, true or
#                         false (default true: lists and watches filtered by shard)
#   LOCAL_KUBE_STATE      state folder (default _output/local/kube): another one, with
#                         other ports, is a second cluster (hack/node-e2e.sh)
#   LOCAL_KUBE_VERSION    newest (default: hack/tools' Kubernetes) or oldest (the oldest
#                         release README claims, from hack/tools/kube-oldest: the
#                         servers kube-apiserver-oldest and kube-controller-manager-oldest,
#                         a cluster of their own by default: state _output/local/kube-oldest,
#                         ports 36443, 36257, 32379 and 32380, so that both can run at once)
#
# Outputs (repo-root relative):
#   _output/bin/{etcd,kube-apiserver,kube-controller-manager}  binaries (+ *.stamp)
#   _output/local/kube/kubeconfig          admin kubeconfig (token, system:masters)
#   _output/local/kube/env                 sourceable KUBECONFIG and ports
#   _output/local/kube/{etcd,kube-apiserver,kube-controller-manager}.{log,pid}
#   _output/local/kube/kube-controller-manager.kubeconfig
#                                          its own identity (token,
#                                          system:kube-controller-manager)
#   _output/local/kube/kube-controller-manager-certs/  its self-signed serving cert
#   _output/local/kube/kube-controller-manager-flexvolume/  (empty) plugin dir
#   _output/local/kube/pki/                CA, serving cert, SA key pair, tokens
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${ROOT}/hack/tools"
BIN_DIR="${ROOT}/_output/bin"
LOCAL_DIR="${ROOT}/_output/local"
KUBE_VERSION="${LOCAL_KUBE_VERSION:-newest}"
case "${KUBE_VERSION}" in
  newest) SERVER_SUFFIX= DEFAULT_STATE="${LOCAL_DIR}/kube" DEFAULT_PORTS=(16443 16257 12379 12380) ;;
  oldest) SERVER_SUFFIX=-oldest DEFAULT_STATE="${LOCAL_DIR}/kube-oldest" DEFAULT_PORTS=(36443 36257 32379 32380) ;;
  *) echo "local-kube: error: LOCAL_KUBE_VERSION must be newest or oldest, got '${KUBE_VERSION}'" >&2; exit 1 ;;
esac
STATE_DIR="${LOCAL_KUBE_STATE:-${DEFAULT_STATE}}"
PKI_DIR="${STATE_DIR}/pki"
LOCK_FILE="${STATE_DIR}.lock"
KUBECONFIG_FILE="${STATE_DIR}/kubeconfig"
TOKEN_FILE="${PKI_DIR}/tokens.csv"
KCM_KUBECONFIG="${STATE_DIR}/kube-controller-manager.kubeconfig"

KUBE_PORT="${LOCAL_KUBE_PORT:-${DEFAULT_PORTS[0]}}"
KCM_PORT="${LOCAL_KCM_PORT:-${DEFAULT_PORTS[1]}}"
ETCD_PORT="${LOCAL_ETCD_PORT:-${DEFAULT_PORTS[2]}}"
ETCD_PEER_PORT="${LOCAL_ETCD_PEER_PORT:-${DEFAULT_PORTS[3]}}"
TIMEOUT="${LOCAL_KUBE_TIMEOUT:-90}"
SHARDED_WATCH="${LOCAL_KUBE_SHARDED_WATCH:-true}"
HOST=127.0.0.1

log() { echo "local-kube: $*"; }
die() { echo "local-kube: error: $*" >&2; exit 1; }
[[ "${SHARDED_WATCH}" == true || "${SHARDED_WATCH}" == false ]] || die "LOCAL_KUBE_SHARDED_WATCH must be true or false, got '${SHARDED_WATCH}'"

# shellcheck source=hack/lib/kube-build.sh
source "${ROOT}/hack/lib/kube-build.sh"
# shellcheck source=hack/lib/kube-pki.sh
source "${ROOT}/hack/lib/kube-pki.sh"
# shellcheck source=hack/lib/lock.sh
source "${ROOT}/hack/lib/lock.sh"

cmd_build() {
  local start=${SECONDS}
  build_one etcd
  build_one "kube-apiserver${SERVER_SUFFIX}"
  build_one "kube-controller-manager${SERVER_SUFFIX}"
  log "build done in $((SECONDS - start))s"
}

# -------------------------------------------------------------- helpers ----

pid_file() { echo "${STATE_DIR}/$1.pid"; }

# server_bin NAME: the binary of server NAME (etcd, kube-apiserver or
# kube-controller-manager) for LOCAL_KUBE_VERSION.
server_bin() {
  case "$1" in
    etcd) echo "${BIN_DIR}/etcd" ;;
    *) echo "${BIN_DIR}/$1${SERVER_SUFFIX}" ;;
  esac
}

# pid_of NAME: prints the PID of our running NAME, or fails. A PID counts only
# if that process's argv[0] is our binary, so a reused PID is never touched.
pid_of() {
  local f pid argv0
  f="$(pid_file "$1")"
  [[ -f "${f}" ]] || return 1
  pid="$(cat "${f}" 2>/dev/null || true)"
  [[ "${pid}" =~ ^[0-9]+$ ]] || return 1
  argv0="$({ tr '\0' '\n' <"/proc/${pid}/cmdline"; } 2>/dev/null | head -n1 || true)"
  [[ "${argv0}" == "$(server_bin "$1")" ]] || return 1
  echo "${pid}"
}

# port_in_use VAR DEFAULT: the port VAR of the running control plane, as
# recorded in its env file (the environment of a later call may differ).
port_in_use() {
  local p
  p="$({ sed -n "s/^$1=//p" "${STATE_DIR}/env"; } 2>/dev/null || true)"
  echo "${p:-$2}"
}
kube_port_in_use() { port_in_use LOCAL_KUBE_PORT "${KUBE_PORT}"; }
kcm_port_in_use() { port_in_use LOCAL_KCM_PORT "${KCM_PORT}"; }

etcd_healthy() {
  curl -fsS --noproxy '*' --max-time 3 "http://${HOST}:${ETCD_PORT}/health" 2>/dev/null |
    grep -q '"health":"true"'
}

apiserver_ready() {
  local port=${1:-${KUBE_PORT}} token
  token="$(admin_token)"
  [[ -n "${token}" && -f "${PKI_DIR}/ca.crt" ]] || return 1
  [[ "$(curl -fsS --noproxy '*' --max-time 3 --cacert "${PKI_DIR}/ca.crt" \
        -H "Authorization: Bearer ${token}" "https://${HOST}:${port}/readyz" 2>/dev/null)" == "ok" ]]
}

# kcm_healthy [PORT]: its /healthz is open to anonymous requests (the default
# --authorization-always-allow-paths). -k: it serves a self-signed certificate
# of its own making; nothing secret is sent.
kcm_healthy() {
  local port=${1:-${KCM_PORT}}
  [[ "$(curl -fsSk --noproxy '*' --max-time 3 "https://${HOST}:${port}/healthz" 2>/dev/null)" == "ok" ]]
}

is_running() {
  pid_of etcd >/dev/null && pid_of kube-apiserver >/dev/null &&
    pid_of kube-controller-manager >/dev/null &&
    apiserver_ready "$(kube_port_in_use)" && kcm_healthy "$(kcm_port_in_use)"
}

port_busy() { (exec 3<>"/dev/tcp/${HOST}/$1") 2>/dev/null; }

# stop_one NAME: TERM, wait up to 10 s, then KILL; removes the PID file.
stop_one() {
  local name=$1 pid i
  if pid="$(pid_of "${name}")"; then
    log "stopping ${name} (pid ${pid})"
    kill -TERM "${pid}" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      pid_of "${name}" >/dev/null || break
      sleep 0.1
    done
    if pid_of "${name}" >/dev/null; then
      log "${name} did not exit after 10s, killing"
      kill -KILL "${pid}" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do
        pid_of "${name}" >/dev/null || break
        sleep 0.1
      done
    fi
    DEAD_PIDS+=("${pid}")
  fi
  rm -f "$(pid_file "${name}")"
}

# reap_dead: wait (up to 5 s) until the zombies of the servers stop_one
# ended are gone, so that no <defunct> entry is left when stop returns. Our
# own children (a failed start) are reaped with wait; others by init.
DEAD_PIDS=()
reap_dead() {
  local pid i
  for pid in "${DEAD_PIDS[@]}"; do
    wait "${pid}" 2>/dev/null || true
  done
  for ((i = 0; i < 50; i++)); do
    for pid in "${DEAD_PIDS[@]}"; do
      [[ -e "/proc/${pid}" ]] && { sleep 0.1; continue 2; }
    done
    break
  done
  DEAD_PIDS=()
}

with_lock() {
  take_lock "${LOCK_FILE}" 900 "another hack/local-kube.sh holds ${LOCK_FILE}"
}

# --------------------------------------------------------------- start -----

STARTED=()

# launch NAME ARGS...: start the binary in its own session, detached from
# this shell (the lock fd is closed so the server does not hold the lock).
# The PID file is written by the process itself right before it execs the
# server, so it names the server even if setsid has to fork; launch returns
# once that exec has happened, so pid_of sees the server from then on.
launch() {
  local name=$1 pf i
  shift
  pf="$(pid_file "${name}")"
  rm -f "${pf}"
  : >"${STATE_DIR}/${name}.log"
  STARTED+=("${name}")
  # shellcheck disable=SC2016 # $$, $0 and $@ are the inner shell's
  setsid nohup bash -c 'echo $$ >"$0.tmp" && mv -f "$0.tmp" "$0" && exec "$@"' \
    "${pf}" "$(server_bin "${name}")" "$@" >>"${STATE_DIR}/${name}.log" 2>&1 </dev/null 9>&- &
  for ((i = 0; i < 100; i++)); do
    pid_of "${name}" >/dev/null && return 0
    sleep 0.05
  done
  fail_start "${name} did not start"
}

fail_start() {
  local name
  echo "local-kube: error: $*" >&2
  for name in "${STARTED[@]}"; do
    if [[ -f "${STATE_DIR}/${name}.log" ]]; then
      echo "---- last 30 lines of ${STATE_DIR#"${ROOT}"/}/${name}.log ----" >&2
      tail -n 30 "${STATE_DIR}/${name}.log" >&2
    fi
  done
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
    stop_one "${STARTED[i]}"
  done
  reap_dead
  exit 1
}

# wait_for NAME DEADLINE CHECK...: poll CHECK until it succeeds, NAME dies or
# the deadline (in $SECONDS) passes.
wait_for() {
  local name=$1 deadline=$2
  shift 2
  while ! "$@"; do
    pid_of "${name}" >/dev/null || fail_start "${name} exited during startup"
    ((SECONDS < deadline)) || fail_start "${name} not ready after ${TIMEOUT}s"
    sleep 0.5
  done
}

# apiserver_flags PORT: kube-apiserver's flags for serving on PORT. The default
# admission plugins, ServiceAccount included (it rejects Pods until the
# controller-manager has made their namespace's "default" ServiceAccount). Also:
#  - endpoint reconciler off: it would publish 127.0.0.1 as the endpoint of the
#    "kubernetes" Service, which validation rejects (loopback), and log an error
#    every 10 s. An apiserver on another ADDRESS (the local node's bridge) publishes
#    that one: Pods reach the apiserver through the Service.
#  - --shutdown-send-retry-after: shut the HTTP server down after 2 s instead of
#    waiting up to 60 s for open watches on SIGTERM.
#  - --feature-gates=ShardedListAndWatch: lists and watches filtered by a shard
#    selector, which the controller's -shards asks for (alpha in 1.36, off by default);
#    the oldest release has no such gate, and refuses gates it does not know.
# No flag holds a space, so callers may split the output on words.
apiserver_flags() {
  local port=$1 address=${2:-${HOST}} reconciler=none
  [[ "${address}" == "${HOST}" ]] || reconciler=lease
  echo --bind-address="${address}" --advertise-address="${address}" --secure-port="${port}" \
    --etcd-servers="http://${HOST}:${ETCD_PORT}" \
    --cert-dir="${STATE_DIR}/apiserver-certs" \
    --tls-cert-file="${PKI_DIR}/apiserver.crt" --tls-private-key-file="${PKI_DIR}/apiserver.key" \
    --client-ca-file="${PKI_DIR}/ca.crt" --token-auth-file="${TOKEN_FILE}" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="${PKI_DIR}/sa.pub" \
    --service-account-signing-key-file="${PKI_DIR}/sa.key" \
    --service-cluster-ip-range=10.96.0.0/24 \
    --endpoint-reconciler-type="${reconciler}" \
    --shutdown-send-retry-after=true \
    $([[ "${KUBE_VERSION}" == oldest ]] || echo --feature-gates=ShardedListAndWatch="${SHARDED_WATCH}") \
    --profiling=false
}

# serve-apiserver PORT [ADDRESS]: one more kube-apiserver on the running etcd, in the
# foreground.
cmd_serve_apiserver() {
  local port=${1:-} address=${2:-${HOST}}
  [[ "${port}" =~ ^[0-9]+$ ]] || die "serve-apiserver needs a port number, got '${port}'"
  [[ "${address}" =~ ^[0-9]+(\.[0-9]+){3}$ ]] || die "serve-apiserver needs an IPv4 address, got '${address}'"
  [[ "${port}" != "${KUBE_PORT}" ]] || die "port ${port} is the shared kube-apiserver's"
  is_running || die "the local control plane is not running: run '$0 start' first"
  # shellcheck disable=SC2046 # apiserver_flags prints words without spaces
  exec "$(server_bin kube-apiserver)" $(apiserver_flags "${port}" "${address}")
}

cmd_start() {
  with_lock
  if is_running; then
    log "already running: $(sed -n 's/^    server: //p' "${KUBECONFIG_FILE}") (KUBECONFIG=${KUBECONFIG_FILE#"${ROOT}"/})"
    return 0
  fi
  # Anything left over is stale (dead PIDs) or half-up (e.g. no
  # kube-controller-manager): stop it all, clients first, and start afresh.
  local name
  for name in kube-controller-manager kube-apiserver etcd; do
    if pid_of "${name}" >/dev/null; then
      log "${name} is running but the control plane is not ready; restarting it"
    elif [[ -f "$(pid_file "${name}")" ]]; then
      log "removing stale ${name} PID file"
    fi
    stop_one "${name}"
  done
  reap_dead

  cmd_build
  local start=${SECONDS}
  mkdir -p "${STATE_DIR}"
  chmod 700 "${STATE_DIR}"
  (umask 077 && gen_pki)

  local port
  for port in "${ETCD_PORT}" "${ETCD_PEER_PORT}" "${KUBE_PORT}" "${KCM_PORT}"; do
    port_busy "${port}" && die "port ${HOST}:${port} is already in use (set LOCAL_KUBE_PORT / LOCAL_KCM_PORT / LOCAL_ETCD_PORT / LOCAL_ETCD_PEER_PORT)"
  done

  # Only a kubeconfig of a ready control plane is left behind.
  rm -f "${KUBECONFIG_FILE}" "${STATE_DIR}/env"
  trap 'fail_start "interrupted"' INT TERM
  local deadline=$((SECONDS + TIMEOUT))

  log "starting etcd on ${HOST}:${ETCD_PORT} (peer ${ETCD_PEER_PORT})"
  # --unsafe-no-fsync: throw-away test data; fsync dominates latency on VMs.
  launch etcd \
    --name=local \
    --data-dir="${STATE_DIR}/etcd" \
    --listen-client-urls="http://${HOST}:${ETCD_PORT}" \
    --advertise-client-urls="http://${HOST}:${ETCD_PORT}" \
    --listen-peer-urls="http://${HOST}:${ETCD_PEER_PORT}" \
    --initial-advertise-peer-urls="http://${HOST}:${ETCD_PEER_PORT}" \
    --initial-cluster="local=http://${HOST}:${ETCD_PEER_PORT}" \
    --initial-cluster-state=new \
    --unsafe-no-fsync
  wait_for etcd "${deadline}" etcd_healthy
  log "etcd is healthy"

  log "starting kube-apiserver on https://${HOST}:${KUBE_PORT}"
  launch kube-apiserver $(apiserver_flags "${KUBE_PORT}")
  wait_for kube-apiserver "${deadline}" apiserver_ready "${KUBE_PORT}"
  log "kube-apiserver is ready ($((SECONDS - start))s)"
  local kcm_start=${SECONDS}

  log "starting kube-controller-manager on https://${HOST}:${KCM_PORT}"
  # Its own identity (system:kube-controller-manager, bound by the bootstrap
  # RBAC policy) for the API and for the delegated authn/authz of its port;
  # each controller then acts as its own ServiceAccount in kube-system. The
  # CA signs CSRs and is the root CA put into each namespace's
  # kube-root-ca.crt; sa.key signs legacy ServiceAccount token Secrets.
  # The default set of controllers: those needing a cloud or
  # --allocate-node-cidrs skip themselves, the node ones idle without nodes.
  #  - --authentication-skip-lookup: the apiserver has no front-proxy
  #    (request-header) CA, and looking one up in the ConfigMap
  #    kube-system/extension-apiserver-authentication would log "missing
  #    content for CA bundle" every minute, forever. Its port then takes
  #    bearer tokens only (checked by TokenReview), no client certificates.
  #  - --flex-volume-plugin-dir: the default is created (as root) under
  #    /usr/libexec/kubernetes; keep it in the state folder (made here, or it
  #    warns that it is missing).
  #  - --leader-elect=false: a single instance; spares a Lease update every 2 s.
  #  - --profiling=false: no /debug/pprof on its port, as for the apiserver.
  (umask 077 && write_kcm_kubeconfig)
  mkdir -p "${STATE_DIR}/kube-controller-manager-flexvolume"
  launch kube-controller-manager \
    --bind-address="${HOST}" \
    --secure-port="${KCM_PORT}" \
    --cert-dir="${STATE_DIR}/kube-controller-manager-certs" \
    --kubeconfig="${KCM_KUBECONFIG}" \
    --authentication-kubeconfig="${KCM_KUBECONFIG}" \
    --authorization-kubeconfig="${KCM_KUBECONFIG}" \
    --authentication-skip-lookup=true \
    --flex-volume-plugin-dir="${STATE_DIR}/kube-controller-manager-flexvolume" \
    --leader-elect=false \
    --use-service-account-credentials=true \
    --root-ca-file="${PKI_DIR}/ca.crt" \
    --service-account-private-key-file="${PKI_DIR}/sa.key" \
    --cluster-signing-cert-file="${PKI_DIR}/ca.crt" \
    --cluster-signing-key-file="${PKI_DIR}/ca.key" \
    --profiling=false
  # /healthz is ok as soon as it serves; its controllers run about 1 s later
  # (some seconds more on a new state folder, where it first creates their
  # ServiceAccounts): clients wait for what they need, e.g. a "default"
  # ServiceAccount, as on any cluster.
  wait_for kube-controller-manager "${deadline}" kcm_healthy "${KCM_PORT}"
  trap - INT TERM
  log "kube-controller-manager is healthy ($((SECONDS - kcm_start))s after kube-apiserver)"

  (umask 077 && write_kubeconfig)
  log "control plane is ready ($((SECONDS - start))s)"
  log "export KUBECONFIG=${KUBECONFIG_FILE}"
}

cmd_stop() {
  with_lock
  if ! pid_of kube-controller-manager >/dev/null && ! pid_of kube-apiserver >/dev/null &&
     ! pid_of etcd >/dev/null; then
    rm -f "$(pid_file kube-controller-manager)" "$(pid_file kube-apiserver)" "$(pid_file etcd)"
    log "not running"
    return 0
  fi
  # Clients first: the controller-manager would otherwise log connection
  # errors while it outlives the apiserver.
  stop_one kube-controller-manager
  stop_one kube-apiserver
  stop_one etcd
  reap_dead
  log "stopped"
}

cmd_status() {
  if is_running; then
    log "running: https://${HOST}:$(kube_port_in_use) (KUBECONFIG=${KUBECONFIG_FILE#"${ROOT}"/})"
    return 0
  fi
  log "not running"
  return 1
}

cmd_reset() {
  cmd_stop
  rm -rf "${STATE_DIR}"
  log "deleted ${STATE_DIR#"${ROOT}"/}"
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

case "${1:-}" in
  build) with_lock && cmd_build ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  kubeconfig) echo "${KUBECONFIG_FILE}" ;;
  serve-apiserver) cmd_serve_apiserver "${2:-}" "${3:-}" ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
