#!/usr/bin/env bash
# Run a real OpenStack Neutron API server (Debian's neutron-server) on loopback,
# backed by a private MariaDB (unix socket only), for e2e tests and `make run`.
#
# Usage: hack/local-neutron.sh {install|start|stop|status|reset|db-url NAME|start-keystone|stop-keystone}
#
#   install  apt-get install the needed Debian packages (no-op when installed).
#   start    install if needed, then start MariaDB + neutron-server from the
#            private state folder and wait until the API answers. Idempotent.
#   stop     stop neutron-server and MariaDB (by PID file). Idempotent.
#   status   exit 0 if the API answers, 1 otherwise.
#   reset    stop and delete the state folder.
#   db-url NAME     create database NAME in the private MariaDB (which must run) if
#                   missing and print its SQLAlchemy URL (hack/local-keystone.sh uses it).
#   start-keystone  also run a second neutron-server on the same database, with
#                   auth_strategy = keystone, on NEUTRON_KEYSTONE_PORT (default 19697),
#                   validating tokens at NEUTRON_KEYSTONE_AUTH_URL as user "neutron" of
#                   project "service" with NEUTRON_KEYSTONE_PASSWORD. Once started, `start`
#                   starts it again (after a `stop`) until `stop-keystone`. Normally run
#                   by hack/local-keystone.sh start.
#   stop-keystone   stop that second server and forget it.
#
# Environment:
#   NEUTRON_PORT       API port on 127.0.0.1 (default 19696)
#   NEUTRON_STATE_DIR  state folder (default <repo>/_output/local/neutron)
#   NEUTRON_START_TIMEOUT  seconds to wait for the API (default 60)
#   NEUTRON_KEYSTONE_PORT  port of the Keystone-authenticated server (default 19697)
#
# The server (Neutron 21 / Zed on Debian 12) runs with auth_strategy=noauth
# (every request is admin in project "fake_project_id"), core_plugin=ml2 with
# network type "local" and no mechanism drivers or agents (ports stay DOWN,
# unbound), transport_url=fake:/ (no RabbitMQ), quotas unlimited (-1).
# The tag extension (standard-attr-tag) is on; note that this Neutron rejects
# "tags" in POST bodies (set them with PUT .../tags afterwards).
# Nothing listens anywhere but 127.0.0.1; MariaDB has no TCP listener at all.
# The packages' own services and the system-wide MariaDB are never used.
# Logs: <state>/log/ (neutron-server.log; neutron-server.out holds harmless
# tracebacks from the segments plugin trying to reach Nova/Placement).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "${SCRIPT_DIR}/.." && pwd)"

PORT="${NEUTRON_PORT:-19696}"
STATE_DIR="${NEUTRON_STATE_DIR:-${REPO_ROOT}/_output/local/neutron}"
START_TIMEOUT="${NEUTRON_START_TIMEOUT:-60}"
HOST=127.0.0.1
ENDPOINT="http://${HOST}:${PORT}/"

PACKAGES=(neutron-server mariadb-server mariadb-client python3-pymysql curl)

MYSQL_DIR="${STATE_DIR}/mysql"
LOG_DIR="${STATE_DIR}/log"
RUN_DIR="${STATE_DIR}/run"
MY_CNF="${STATE_DIR}/my.cnf"
NEUTRON_CONF="${STATE_DIR}/neutron.conf"
ML2_CONF="${STATE_DIR}/ml2_conf.ini"
MYSQL_PIDFILE="${RUN_DIR}/mariadbd.pid"
NEUTRON_PIDFILE="${RUN_DIR}/neutron-server.pid"
NEUTRON_PORTFILE="${RUN_DIR}/neutron-server.port"
KS_PORT="${NEUTRON_KEYSTONE_PORT:-19697}"
KS_ENDPOINT="http://${HOST}:${KS_PORT}/"
KS_CONF="${STATE_DIR}/neutron-keystone.conf"
KS_PIDFILE="${RUN_DIR}/neutron-server-keystone.pid"
MYSQL_INIT_STAMP="${STATE_DIR}/.mysql-initialized"
DB_STAMP="${STATE_DIR}/.db-migrated"

# A unix socket path must fit in sun_path (108 bytes incl. NUL); fall back to
# a short per-state-dir path under /tmp for deeply nested checkouts.
MYSQL_SOCK="${STATE_DIR}/mysql.sock"
if [ "${#MYSQL_SOCK}" -gt 100 ]; then
  MYSQL_SOCK="${TMPDIR:-/tmp}/local-neutron-$(printf '%s' "${STATE_DIR}" | md5sum | cut -c1-12).sock"
fi

log() { echo "local-neutron: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

case "${PORT}" in
  '' | *[!0-9]*) die "NEUTRON_PORT must be a number, got '${PORT}'" ;;
esac
case "${KS_PORT}" in
  '' | *[!0-9]*) die "NEUTRON_KEYSTONE_PORT must be a number, got '${KS_PORT}'" ;;
esac

# ---------------------------------------------------------------- install ---

pkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    pkg_installed "$p" || echo "$p"
  done
}

POLICY_RC_D=/usr/sbin/policy-rc.d
CREATED_POLICY_RC_D=0
SUDO=()
remove_policy_rc_d() {
  if [ "${CREATED_POLICY_RC_D}" = 1 ]; then
    "${SUDO[@]}" rm -f "${POLICY_RC_D}"
    CREATED_POLICY_RC_D=0
  fi
}

cmd_install() {
  local missing
  missing="$(missing_packages)"
  if [ -z "${missing}" ]; then
    return 0
  fi
  # shellcheck disable=SC2086
  set -- ${missing}
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to install: $*"
    SUDO=(sudo)
  fi
  log "installing Debian packages: $*"
  # Keep the packages' maintainer scripts from starting any service; only
  # when there is no policy-rc.d yet, and only for the time of the install.
  if [ ! -e "${POLICY_RC_D}" ]; then
    trap remove_policy_rc_d EXIT
    CREATED_POLICY_RC_D=1
    printf '#!/bin/sh\n# created by hack/local-neutron.sh for the install only\nexit 101\n' |
      "${SUDO[@]}" tee "${POLICY_RC_D}" >/dev/null
    "${SUDO[@]}" chmod 0755 "${POLICY_RC_D}"
  fi
  local apt=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
    -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef
    -o Dpkg::Options::=--force-confold)
  local rc=0
  # Try without refreshing the package lists first (fast when they are
  # there); on a brand-new machine the lists are empty, so update and retry.
  "${apt[@]}" install -y --no-install-recommends "$@" ||
    { log "apt-get install failed; running apt-get update and retrying" &&
      "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "$@"; } ||
    rc=$?
  remove_policy_rc_d
  trap - EXIT
  [ "${rc}" = 0 ] || die "apt-get install failed (exit ${rc})"
  missing="$(missing_packages)"
  [ -z "${missing}" ] || die "packages still missing after install: ${missing}"
}

# ------------------------------------------------------------ processes ---

# pid_alive PIDFILE PATTERN: the PID in PIDFILE is alive and its command line
# matches PATTERN (guards against recycled PIDs). Prints the PID.
pid_alive() {
  local pidfile="$1" pattern="$2" pid cmdline
  [ -f "${pidfile}" ] || return 1
  pid="$(cat "${pidfile}" 2>/dev/null || true)"
  case "${pid}" in '' | *[!0-9]*) return 1 ;; esac
  [ -r "/proc/${pid}/cmdline" ] || return 1
  cmdline="$(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null || true)"
  case "${cmdline}" in *${pattern}*) ;; *) return 1 ;; esac
  # A zombie is not alive.
  [ "$(awk '{print $3}' "/proc/${pid}/stat" 2>/dev/null)" != Z ] || return 1
  echo "${pid}"
}

# pid_running PID: PID exists and is not a zombie.
pid_running() {
  local pid="$1"
  case "${pid}" in '' | *[!0-9]*) return 1 ;; esac
  [ -r "/proc/${pid}/stat" ] || return 1
  [ "$(awk '{print $3}' "/proc/${pid}/stat" 2>/dev/null)" != Z ]
}

clean_stale_pidfile() {
  local pidfile="$1" pattern="$2"
  if [ -f "${pidfile}" ] && ! pid_alive "${pidfile}" "${pattern}" >/dev/null; then
    log "removing stale PID file ${pidfile}"
    rm -f "${pidfile}"
  fi
}

# group_alive PGID: some process of process group PGID still exists.
group_alive() {
  kill -0 -- "-$1" 2>/dev/null
}

# stop_proc NAME PIDFILE PATTERN: TERM the process group (the processes are
# started with setsid, so PID == PGID), wait up to 15 s, then KILL.
stop_proc() {
  local name="$1" pidfile="$2" pattern="$3" pid i
  if ! pid="$(pid_alive "${pidfile}" "${pattern}")"; then
    rm -f "${pidfile}"
    return 0
  fi
  log "stopping ${name} (pid ${pid})"
  local pgid
  pgid="$(ps -o pgid= -p "${pid}" 2>/dev/null | tr -d ' ' || true)"
  if [ "${pgid}" = "${pid}" ]; then
    kill -TERM -- "-${pid}" 2>/dev/null || true
  else
    kill -TERM "${pid}" 2>/dev/null || true
  fi
  for ((i = 0; i < 150; i++)); do
    if [ "${pgid}" = "${pid}" ]; then
      group_alive "${pid}" || break
    else
      kill -0 "${pid}" 2>/dev/null || break
    fi
    sleep 0.1
  done
  if { [ "${pgid}" = "${pid}" ] && group_alive "${pid}"; } || kill -0 "${pid}" 2>/dev/null; then
    log "${name} did not exit after 15 s; sending KILL"
    if [ "${pgid}" = "${pid}" ]; then
      kill -KILL -- "-${pid}" 2>/dev/null || true
    else
      kill -KILL "${pid}" 2>/dev/null || true
    fi
    for ((i = 0; i < 50; i++)); do
      kill -0 "${pid}" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "${pidfile}"
}

api_answers() {
  curl -sf -o /dev/null --max-time 5 "http://${HOST}:${PORT}/v2.0/networks"
}

# --------------------------------------------------------------- mariadb ---

write_my_cnf() {
  local user_line=""
  [ "$(id -u)" != 0 ] || user_line="user = root"
  cat >"${MY_CNF}.tmp" <<EOF
# Generated by hack/local-neutron.sh -- private MariaDB for the local Neutron.
[mysqld]
datadir = ${MYSQL_DIR}
socket = ${MYSQL_SOCK}
pid-file = ${RUN_DIR}/mariadbd.own.pid
${user_line}
skip-networking
log-error = ${LOG_DIR}/mariadb.log
tmpdir = ${STATE_DIR}/tmp
character-set-server = utf8mb4
collation-server = utf8mb4_general_ci
max_connections = 500
innodb_buffer_pool_size = 128M
innodb_flush_log_at_trx_commit = 2
innodb_doublewrite = 0
sync_binlog = 0

[client]
socket = ${MYSQL_SOCK}
user = root
EOF
  mv -f "${MY_CNF}.tmp" "${MY_CNF}"
}

mysql_client() {
  mariadb --defaults-file="${MY_CNF}" "$@"
}

init_mysql() {
  [ -f "${MYSQL_INIT_STAMP}" ] && [ -d "${MYSQL_DIR}/mysql" ] && return 0
  log "initialising MariaDB datadir ${MYSQL_DIR}"
  rm -rf "${MYSQL_DIR}"
  mkdir -p "${MYSQL_DIR}"
  local user_opt=()
  [ "$(id -u)" != 0 ] || user_opt=(--user=root)
  if ! mariadb-install-db --defaults-file="${MY_CNF}" "${user_opt[@]}" \
    --auth-root-authentication-method=normal --skip-test-db \
    >"${LOG_DIR}/mariadb-install-db.log" 2>&1; then
    tail -n 40 "${LOG_DIR}/mariadb-install-db.log" >&2 || true
    die "mariadb-install-db failed"
  fi
  rm -f "${STATE_DIR}/.db-created" "${DB_STAMP}"
  touch "${MYSQL_INIT_STAMP}"
}

STARTED_MYSQL=0
STARTED_NEUTRON=0

start_mysql() {
  clean_stale_pidfile "${MYSQL_PIDFILE}" mariadbd
  if pid_alive "${MYSQL_PIDFILE}" mariadbd >/dev/null && mysql_client -e 'SELECT 1' >/dev/null 2>&1; then
    return 0
  fi
  if ! pid_alive "${MYSQL_PIDFILE}" mariadbd >/dev/null; then
    rm -f "${MYSQL_SOCK}"
    log "starting mariadbd (socket ${MYSQL_SOCK})"
    # setsid: own process group/session, immune to the caller's Ctrl-C.
    # 9>&-: do not hand the state lock to the daemon.
    setsid mariadbd --defaults-file="${MY_CNF}" \
      >>"${LOG_DIR}/mariadbd.out" 2>&1 </dev/null 9>&- &
    echo $! >"${MYSQL_PIDFILE}"
    STARTED_MYSQL=1
  fi
  local i
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    if [ -S "${MYSQL_SOCK}" ] && mysql_client -e 'SELECT 1' >/dev/null 2>&1; then
      return 0
    fi
    # (not pid_alive: right after the fork the child has not exec'd yet)
    pid_running "$(cat "${MYSQL_PIDFILE}" 2>/dev/null)" || break
    sleep 0.1
  done
  log "mariadbd did not come up; last log lines:"
  tail -n 40 "${LOG_DIR}/mariadb.log" "${LOG_DIR}/mariadbd.out" >&2 2>/dev/null || true
  fail_start
}

# ---------------------------------------------------------------- neutron ---

find_api_paste() {
  local f
  # The pristine packaged copy first (/etc/neutron's is a local conffile).
  for f in /usr/share/neutron-common/api-paste.ini /etc/neutron/api-paste.ini; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  die "cannot find Neutron's api-paste.ini"
}

write_neutron_conf() {
  local api_paste
  api_paste="$(find_api_paste)"
  cat >"${NEUTRON_CONF}.tmp" <<EOF
# Generated by hack/local-neutron.sh -- do not edit, rewritten on every start.
[DEFAULT]
host = local-neutron
bind_host = ${HOST}
bind_port = ${PORT}
auth_strategy = noauth
core_plugin = ml2
# tag, timestamp, revisions, ... are default service plugins of ml2.
service_plugins =
api_paste_config = ${api_paste}
transport_url = fake:/
api_workers = 0
rpc_workers = 0
rpc_state_report_workers = 0
periodic_fuzzy_delay = 0
allow_overlapping_ips = true
notify_nova_on_port_status_changes = false
notify_nova_on_port_data_changes = false
dhcp_agent_notification = false
enable_traditional_dhcp = false
state_path = ${STATE_DIR}/lib
log_dir = ${LOG_DIR}
log_file = neutron-server.log
use_stderr = false
debug = false

[database]
connection = mysql+pymysql://root@localhost/neutron?unix_socket=${MYSQL_SOCK}&charset=utf8mb4
max_pool_size = 20
max_overflow = 50

[quotas]
quota_network = -1
quota_subnet = -1
quota_port = -1
quota_router = -1
quota_floatingip = -1
quota_security_group = -1
quota_security_group_rule = -1

[oslo_concurrency]
lock_path = ${STATE_DIR}/lock

[oslo_messaging_notifications]
driver = noop

[agent]
root_helper = /bin/false
EOF
  mv -f "${NEUTRON_CONF}.tmp" "${NEUTRON_CONF}"

  cat >"${ML2_CONF}.tmp" <<EOF
# Generated by hack/local-neutron.sh -- ML2 without mechanism drivers/agents.
[ml2]
type_drivers = local,flat,vlan
tenant_network_types = local
mechanism_drivers =
extension_drivers =

[ml2_type_flat]
flat_networks = *

[ml2_type_vlan]
network_vlan_ranges =

[securitygroup]
enable_security_group = true
EOF
  mv -f "${ML2_CONF}.tmp" "${ML2_CONF}"
}

neutron_version() {
  dpkg-query -W -f='${Version}' python3-neutron 2>/dev/null || echo unknown
}

prepare_db() {
  if [ ! -f "${STATE_DIR}/.db-created" ]; then
    mysql_client -e 'CREATE DATABASE IF NOT EXISTS neutron' || fail_start
    touch "${STATE_DIR}/.db-created"
  fi
  local want
  want="$(neutron_version)"
  if [ -f "${DB_STAMP}" ] && [ "$(cat "${DB_STAMP}")" = "${want}" ]; then
    return 0
  fi
  log "running neutron-db-manage upgrade heads"
  if ! neutron-db-manage --config-file "${NEUTRON_CONF}" --config-file "${ML2_CONF}" \
    upgrade heads >"${LOG_DIR}/neutron-db-manage.log" 2>&1; then
    tail -n 40 "${LOG_DIR}/neutron-db-manage.log" >&2 || true
    log "neutron-db-manage failed"
    fail_start
  fi
  echo "${want}" >"${DB_STAMP}"
}

# wait_answering NAME PIDFILE CHECK: waits up to START_TIMEOUT for CHECK to succeed; fails
# early, saying so, when the process in PIDFILE exits.
wait_answering() {
  local name=$1 pidfile=$2 check=$3 i
  for ((i = 0; i < START_TIMEOUT * 4; i++)); do
    "${check}" && return 0
    if ! pid_running "$(cat "${pidfile}" 2>/dev/null)"; then
      log "${name} exited"
      return 1
    fi
    sleep 0.25
  done
  return 1
}

start_neutron() {
  clean_stale_pidfile "${NEUTRON_PIDFILE}" neutron-server
  if ! pid_alive "${NEUTRON_PIDFILE}" neutron-server >/dev/null; then
    if api_answers; then
      die "something else already answers on ${ENDPOINT} (not our neutron-server); set NEUTRON_PORT"
    fi
    log "starting neutron-server on ${ENDPOINT}"
    setsid neutron-server --config-file "${NEUTRON_CONF}" --config-file "${ML2_CONF}" \
      >>"${LOG_DIR}/neutron-server.out" 2>&1 </dev/null 9>&- &
    echo $! >"${NEUTRON_PIDFILE}"
    echo "${PORT}" >"${NEUTRON_PORTFILE}"
    STARTED_NEUTRON=1
  fi
  wait_answering neutron-server "${NEUTRON_PIDFILE}" api_answers && return 0
  log "neutron-server did not answer on ${ENDPOINT} within ${START_TIMEOUT} s; last log lines:"
  tail -n 40 "${LOG_DIR}/neutron-server.log" >&2 2>/dev/null || true
  tail -n 10 "${LOG_DIR}/neutron-server.out" >&2 2>/dev/null || true
  fail_start
}

# Stop only what this invocation started, then fail.
fail_start() {
  # Empty pattern: these PIDs are known to be ours (maybe not exec'd yet).
  if [ "${STARTED_NEUTRON}" = 1 ]; then
    stop_proc neutron-server "${NEUTRON_PIDFILE}" ""
    rm -f "${NEUTRON_PORTFILE}"
  fi
  if [ "${STARTED_MYSQL}" = 1 ]; then
    stop_proc mariadbd "${MYSQL_PIDFILE}" ""
  fi
  die "start failed"
}

# ------------------------------------------- keystone-authenticated server ---

# The second neutron-server reads the same files as the first plus this one, which
# overrides the port, the log file and the auth strategy. Returns 1 when the file
# already had these contents.
write_keystone_conf() {
  local auth_url="${NEUTRON_KEYSTONE_AUTH_URL:?NEUTRON_KEYSTONE_AUTH_URL is not set (run hack/local-keystone.sh start)}"
  local password="${NEUTRON_KEYSTONE_PASSWORD:?NEUTRON_KEYSTONE_PASSWORD is not set (run hack/local-keystone.sh start)}"
  local old_umask
  old_umask="$(umask)"
  umask 077
  cat >"${KS_CONF}.tmp" <<EOF
# Generated by hack/local-neutron.sh start-keystone -- read after neutron.conf.
[DEFAULT]
bind_port = ${KS_PORT}
auth_strategy = keystone
log_file = neutron-server-keystone.log

[keystone_authtoken]
www_authenticate_uri = ${auth_url}
auth_url = ${auth_url}
auth_type = password
username = neutron
password = ${password}
project_name = service
user_domain_name = Default
project_domain_name = Default
EOF
  umask "${old_umask}"
  # Unchanged settings: keep the running server (and its token cache).
  if cmp -s "${KS_CONF}.tmp" "${KS_CONF}" 2>/dev/null; then
    rm -f "${KS_CONF}.tmp"
    return 1
  fi
  mv -f "${KS_CONF}.tmp" "${KS_CONF}"
}

ks_api_answers() {
  curl -sf -o /dev/null --max-time 5 "${KS_ENDPOINT}"
}

# start_keystone_server: start the second server when its config exists (written by
# start-keystone) and it does not run yet.
start_keystone_server() {
  [ -f "${KS_CONF}" ] || return 0
  clean_stale_pidfile "${KS_PIDFILE}" neutron-keystone.conf
  if ! pid_alive "${KS_PIDFILE}" neutron-keystone.conf >/dev/null; then
    if ks_api_answers; then
      die "something else already answers on ${KS_ENDPOINT}; set NEUTRON_KEYSTONE_PORT"
    fi
    log "starting the Keystone-authenticated neutron-server on ${KS_ENDPOINT}"
    setsid neutron-server --config-file "${NEUTRON_CONF}" --config-file "${ML2_CONF}" \
      --config-file "${KS_CONF}" \
      >>"${LOG_DIR}/neutron-server-keystone.out" 2>&1 </dev/null 9>&- &
    echo $! >"${KS_PIDFILE}"
  fi
  wait_answering "the Keystone-authenticated neutron-server" "${KS_PIDFILE}" ks_api_answers && return 0
  log "the Keystone-authenticated neutron-server did not answer on ${KS_ENDPOINT}; last log lines:"
  tail -n 40 "${LOG_DIR}/neutron-server-keystone.log" >&2 2>/dev/null || true
  stop_proc neutron-server-keystone "${KS_PIDFILE}" ""
  die "start failed"
}

# ------------------------------------------------------------------ lock ---

take_lock() {
  mkdir -p "${STATE_DIR}"
  exec 9>"${STATE_DIR}/.lock"
  flock -w 300 9 || die "could not lock ${STATE_DIR}/.lock"
}

# --------------------------------------------------------------- commands ---

cmd_start() {
  cmd_install
  take_lock
  mkdir -p "${MYSQL_DIR}" "${LOG_DIR}" "${RUN_DIR}" "${STATE_DIR}/tmp" \
    "${STATE_DIR}/lib" "${STATE_DIR}/lock"
  clean_stale_pidfile "${NEUTRON_PIDFILE}" neutron-server
  clean_stale_pidfile "${MYSQL_PIDFILE}" mariadbd
  local pid running_port
  if pid="$(pid_alive "${NEUTRON_PIDFILE}" neutron-server)"; then
    running_port="$(cat "${NEUTRON_PORTFILE}" 2>/dev/null || true)"
    if [ -n "${running_port}" ] && [ "${running_port}" != "${PORT}" ]; then
      die "neutron-server (pid ${pid}) already runs on port ${running_port}; run '$0 stop' first or use NEUTRON_PORT=${running_port}"
    fi
    if api_answers; then
      log "already running and answering"
      start_keystone_server
      echo "${ENDPOINT}"
      return 0
    fi
  fi
  write_my_cnf
  init_mysql
  start_mysql
  write_neutron_conf
  prepare_db
  start_neutron
  start_keystone_server
  log "neutron API is up (logs: ${LOG_DIR})"
  echo "${ENDPOINT}"
}

cmd_stop() {
  [ -d "${STATE_DIR}" ] || return 0
  take_lock
  stop_proc neutron-server-keystone "${KS_PIDFILE}" neutron-keystone.conf
  stop_proc neutron-server "${NEUTRON_PIDFILE}" neutron-server
  stop_proc mariadbd "${MYSQL_PIDFILE}" mariadbd
  rm -f "${RUN_DIR}/mariadbd.own.pid" "${NEUTRON_PORTFILE}"
}

cmd_status() {
  if api_answers; then
    log "neutron API answers on ${ENDPOINT}"
    return 0
  fi
  log "neutron API does not answer on ${ENDPOINT}"
  return 1
}

cmd_db_url() {
  local name="$1"
  case "${name}" in '' | *[!a-z0-9_]*) die "database name must be [a-z0-9_]+, got '${name}'" ;; esac
  mysql_client -e "CREATE DATABASE IF NOT EXISTS ${name}" ||
    die "cannot create database ${name}: is MariaDB running ($0 start)?"
  echo "mysql+pymysql://root@localhost/${name}?unix_socket=${MYSQL_SOCK}&charset=utf8mb4"
}

cmd_start_keystone() {
  take_lock
  pid_alive "${MYSQL_PIDFILE}" mariadbd >/dev/null || die "MariaDB does not run; run '$0 start' first"
  # A running server keeps the settings it started with: restart it when they changed.
  if write_keystone_conf; then
    stop_proc neutron-server-keystone "${KS_PIDFILE}" neutron-keystone.conf
  fi
  start_keystone_server
  echo "${KS_ENDPOINT}"
}

cmd_stop_keystone() {
  [ -d "${STATE_DIR}" ] || return 0
  take_lock
  stop_proc neutron-server-keystone "${KS_PIDFILE}" neutron-keystone.conf
  rm -f "${KS_CONF}"
}

cmd_reset() {
  cmd_stop
  exec 9>&-
  rm -rf "${STATE_DIR}"
  case "${MYSQL_SOCK}" in "${STATE_DIR}"/*) ;; *) rm -f "${MYSQL_SOCK}" ;; esac
  log "removed ${STATE_DIR}"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  db-url) cmd_db_url "${2:-}" ;;
  start-keystone) cmd_start_keystone ;;
  stop-keystone) cmd_stop_keystone ;;
  *)
    echo "usage: $0 {install|start|stop|status|reset|db-url NAME|start-keystone|stop-keystone}" >&2
    exit 2
    ;;
esac
