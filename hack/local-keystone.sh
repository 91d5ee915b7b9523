#!/usr/bin/env bash
# Run a real OpenStack Keystone (Debian's keystone, Zed, under uwsgi) on loopback,
# plus a neutron-server that authenticates through it, for `make run` and the e2e tests.
#
# Usage: hack/local-keystone.sh {install|start|stop|status|reset|env}
#
#   install  apt-get install the needed Debian packages (no-op when installed).
#   start    start the local Neutron's MariaDB (hack/local-neutron.sh start), then
#            Keystone, seed it, start the Keystone-authenticated neutron-server and
#            write clouds.yaml. Idempotent; prints the clouds.yaml path.
#   stop     stop Keystone (by PID file). Both neutron-servers and MariaDB belong to
#            hack/local-neutron.sh (its stop stops them); the Keystone-authenticated
#            one keeps running and answers 503 until Keystone is back, as on a cloud
#            whose Keystone is down.
#   status   exit 0 if Keystone answers, 1 otherwise.
#   reset    stop Keystone and the Keystone-authenticated neutron-server and delete
#            the state folder (the keystone database stays in the local Neutron's
#            MariaDB until `hack/local-neutron.sh reset`).
#   env      print the settings as shell assignments.
#
# Environment:
#   KEYSTONE_PORT              Keystone API port on 127.0.0.1 (default 15000)
#   NEUTRON_KEYSTONE_PORT      port of the Keystone-authenticated neutron-server (default 19697)
#   KEYSTONE_TOKEN_EXPIRATION  token lifetime in seconds (default 3600; the e2e tests use
#                              a short one so that re-authentication really happens)
#   KEYSTONE_STATE_DIR         state folder (default <repo>/_output/local/keystone)
#   KEYSTONE_START_TIMEOUT     seconds to wait for the API (default 60)
#   NEUTRON_PORT, NEUTRON_STATE_DIR  passed on to hack/local-neutron.sh
#
# What is in it after `start` (passwords are random, made at the first start and kept
# in <state>/passwords, mode 0600):
#   - admin (project admin, role admin) from `keystone-manage bootstrap`;
#   - project "k8s" with user "k8s-controller" holding only the "member" role: the
#     identity the controller runs as (cloud "k8s" in <state>/clouds.yaml; cloud
#     "k8s-admin" is the admin, for looking around);
#   - project "service" with user "neutron" (role admin) that neutron-server's
#     keystonemiddleware uses to validate tokens;
#   - catalog: identity at http://127.0.0.1:KEYSTONE_PORT/v3/ and network at
#     http://127.0.0.1:NEUTRON_KEYSTONE_PORT/, region RegionOne.
#
# Why two neutron-servers: the existing tests and quick checks talk to Neutron
# without a token (auth_strategy = noauth, every request admin) to inspect all
# projects. Switching that server to Keystone would make every one of them handle
# tokens. So hack/local-neutron.sh keeps the noauth server on NEUTRON_PORT and runs a
# second neutron-server with auth_strategy = keystone on NEUTRON_KEYSTONE_PORT, on
# the same database: both show the same networks, and only the second one is in
# the catalog, so a client that starts from clouds.yaml meets Keystone and
# Neutron's policies exactly as on a real cloud.
#
# Keystone logs every request with its user agent to <state>/log/keystone-access.log;
# the e2e tests count the controller's token requests there. Nothing listens
# anywhere but 127.0.0.1. The package's own keystone service is never started.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "${SCRIPT_DIR}/.." && pwd)"

PORT="${KEYSTONE_PORT:-15000}"
NEUTRON_KEYSTONE_PORT="${NEUTRON_KEYSTONE_PORT:-19697}"
EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-3600}"
STATE_DIR="${KEYSTONE_STATE_DIR:-${REPO_ROOT}/_output/local/keystone}"
START_TIMEOUT="${KEYSTONE_START_TIMEOUT:-60}"
HOST=127.0.0.1
AUTH_URL="http://${HOST}:${PORT}/v3"
NETWORK_URL="http://${HOST}:${NEUTRON_KEYSTONE_PORT}/"
REGION=RegionOne
export NEUTRON_KEYSTONE_PORT

PACKAGES=(keystone uwsgi-core uwsgi-plugin-python3 python3-keystoneclient python3-openstackclient curl)
# Debian's python; a python on PATH (pyenv, venv) lacks the OpenStack libraries.
PYTHON=/usr/bin/python3

LOG_DIR="${STATE_DIR}/log"
RUN_DIR="${STATE_DIR}/run"
CONF="${STATE_DIR}/keystone.conf"
PASSWORDS="${STATE_DIR}/passwords"
CLOUDS_YAML="${STATE_DIR}/clouds.yaml"
PIDFILE="${RUN_DIR}/keystone.pid"
SETTINGSFILE="${RUN_DIR}/keystone.settings"
KEYS_STAMP="${STATE_DIR}/.keys-ready"

log() { echo "local-keystone: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

for v in PORT NEUTRON_KEYSTONE_PORT EXPIRATION START_TIMEOUT; do
  case "${!v}" in '' | *[!0-9]*) die "${v} must be a number, got '${!v}'" ;; esac
done

neutron_script() { "${SCRIPT_DIR}/local-neutron.sh" "$@"; }

# ---------------------------------------------------------------- install ---

pkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

cmd_install() {
  local p missing=()
  for p in "${PACKAGES[@]}"; do
    pkg_installed "$p" || missing+=("$p")
  done
  [ "${#missing[@]}" = 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
    sudo=(sudo)
  fi
  log "installing Debian packages: ${missing[*]}"
  # The package would start its own Keystone on port 5000: forbid service starts
  # for the time of the install (only when no policy-rc.d exists yet).
  local policy=/usr/sbin/policy-rc.d created=0
  if [ ! -e "${policy}" ]; then
    printf '#!/bin/sh\n# created by hack/local-keystone.sh for the install only\nexit 101\n' |
      "${sudo[@]}" tee "${policy}" >/dev/null
    "${sudo[@]}" chmod 0755 "${policy}"
    created=1
  fi
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
    -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef
    -o Dpkg::Options::=--force-confold)
  local rc=0 t0=${SECONDS}
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}" ||
    { log "apt-get install failed; running apt-get update and retrying" &&
      "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; } ||
    rc=$?
  [ "${created}" = 0 ] || "${sudo[@]}" rm -f "${policy}"
  [ "${rc}" = 0 ] || die "apt-get install failed (exit ${rc})"
  log "installed in $((SECONDS - t0)) s"
}

# ------------------------------------------------------------ processes ---

# pid_alive PIDFILE: the PID in PIDFILE runs uwsgi with our config (guards against
# recycled PIDs) and is not a zombie. Prints the PID.
pid_alive() {
  local pid cmdline
  [ -f "$1" ] || return 1
  pid="$(cat "$1" 2>/dev/null || true)"
  case "${pid}" in '' | *[!0-9]*) return 1 ;; esac
  cmdline="$(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null || true)"
  case "${cmdline}" in *uwsgi*"${CONF}"*) ;; *) return 1 ;; esac
  [ "$(awk '{print $3}' "/proc/${pid}/stat" 2>/dev/null)" != Z ] || return 1
  echo "${pid}"
}

# stop_keystone: TERM the process group (started with setsid, so PGID == PID), wait
# up to 15 s, then KILL.
stop_keystone() {
  local pid i
  if ! pid="$(pid_alive "${PIDFILE}")"; then
    rm -f "${PIDFILE}" "${SETTINGSFILE}"
    return 0
  fi
  log "stopping keystone (pid ${pid})"
  kill -TERM -- "-${pid}" 2>/dev/null || kill -TERM "${pid}" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    kill -0 -- "-${pid}" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 -- "-${pid}" 2>/dev/null; then
    log "keystone did not exit after 15 s; sending KILL"
    kill -KILL -- "-${pid}" 2>/dev/null || true
  fi
  rm -f "${PIDFILE}" "${SETTINGSFILE}"
}

api_answers() {
  curl -sf -o /dev/null --max-time 5 "${AUTH_URL}/"
}

# ----------------------------------------------------------------- config ---

# make_passwords: random passwords, made once and kept, so that clouds.yaml written
# earlier stays valid across restarts.
make_passwords() {
  [ -s "${PASSWORDS}" ] && return 0
  local old_umask
  old_umask="$(umask)"
  umask 077
  {
    echo "ADMIN_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
    echo "MEMBER_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
    echo "NEUTRON_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
  } >"${PASSWORDS}.tmp"
  mv -f "${PASSWORDS}.tmp" "${PASSWORDS}"
  umask "${old_umask}"
}

write_conf() {
  local db_url=$1
  cat >"${CONF}.tmp" <<EOF
# Generated by hack/local-keystone.sh -- do not edit, rewritten on every start.
[DEFAULT]
log_dir = ${LOG_DIR}
log_file = keystone.log
use_stderr = false
debug = false

[database]
connection = ${db_url}

[token]
provider = fernet
expiration = ${EXPIRATION}

[fernet_tokens]
key_repository = ${STATE_DIR}/fernet-keys

[fernet_receipts]
key_repository = ${STATE_DIR}/fernet-keys

[credential]
key_repository = ${STATE_DIR}/credential-keys

[cache]
enabled = false

[oslo_policy]
policy_file = ${STATE_DIR}/policy.yaml
EOF
  mv -f "${CONF}.tmp" "${CONF}"
  # An empty policy file: the defaults in code apply.
  [ -f "${STATE_DIR}/policy.yaml" ] || echo '{}' >"${STATE_DIR}/policy.yaml"
}

keystone_manage() {
  local what=$1
  shift
  # keystone-manage prints a harmless "Exception ignored ... getcurrent" traceback at
  # exit; its exit code is what counts.
  if ! keystone-manage --config-file "${CONF}" "$@" >>"${LOG_DIR}/keystone-manage.log" 2>&1; then
    tail -n 30 "${LOG_DIR}/keystone-manage.log" >&2 || true
    die "keystone-manage ${what} failed"
  fi
}

# prepare_db: schema migrations (quick when current) and the key repositories.
prepare_db() {
  log "keystone-manage db_sync"
  keystone_manage db_sync db_sync
  if [ ! -f "${KEYS_STAMP}" ]; then
    local user group
    user="$(id -un)"
    group="$(id -gn)"
    mkdir -p "${STATE_DIR}/fernet-keys" "${STATE_DIR}/credential-keys"
    keystone_manage fernet_setup fernet_setup --keystone-user "${user}" --keystone-group "${group}"
    keystone_manage credential_setup credential_setup --keystone-user "${user}" --keystone-group "${group}"
    touch "${KEYS_STAMP}"
  fi
}

start_keystone() {
  if pid_alive "${PIDFILE}" >/dev/null; then
    if [ "$(cat "${SETTINGSFILE}" 2>/dev/null)" = "${PORT} ${EXPIRATION}" ]; then
      return 0
    fi
    log "keystone runs with other settings ($(cat "${SETTINGSFILE}" 2>/dev/null)); restarting it"
    stop_keystone
  fi
  if api_answers; then
    die "something else already answers on ${AUTH_URL} (not our keystone); set KEYSTONE_PORT"
  fi
  log "starting keystone on ${AUTH_URL} (token lifetime ${EXPIRATION} s)"
  # setsid: own process group, immune to the caller's Ctrl-C and stopped as a group.
  # The request log carries the user agent, so clients can be told apart.
  setsid uwsgi --plugins python3,logfile --master --processes 1 --threads 4 --die-on-term \
    --http11-socket "${HOST}:${PORT}" --add-header "Connection: close" --need-app \
    --wsgi-file /usr/bin/keystone-wsgi-public --pyargv "--config-file ${CONF}" \
    --logger "file:${LOG_DIR}/uwsgi.log" \
    --req-logger "file:${LOG_DIR}/keystone-access.log" \
    --logformat '%(ltime) %(addr) %(method) %(uri) %(status) %(msecs)ms ua="%(uagent)"' \
    >>"${LOG_DIR}/uwsgi.out" 2>&1 </dev/null 9>&- &
  echo $! >"${PIDFILE}"
  echo "${PORT} ${EXPIRATION}" >"${SETTINGSFILE}"
  local i pid
  pid="$(cat "${PIDFILE}")"
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    api_answers && return 0
    if ! kill -0 "${pid}" 2>/dev/null; then
      log "keystone exited"
      break
    fi
    sleep 0.1
  done
  log "keystone did not answer on ${AUTH_URL} within ${START_TIMEOUT} s; last log lines:"
  tail -n 30 "${LOG_DIR}/uwsgi.log" "${LOG_DIR}/keystone.log" >&2 2>/dev/null || true
  stop_keystone
  die "start failed"
}

# seeded: the member user gets a token whose catalog has the network endpoint we
# want. One request, so a restart skips the seeding.
seeded() {
  local body
  body="$(curl -sf --max-time 10 -H 'Content-Type: application/json' -d @- "${AUTH_URL}/auth/tokens" <<EOF
{"auth": {"identity": {"methods": ["password"], "password": {"user": {"name": "k8s-controller",
 "domain": {"id": "default"}, "password": "${MEMBER_PASSWORD}"}}},
 "scope": {"project": {"name": "k8s", "domain": {"id": "default"}}}}}
EOF
  )" || return 1
  grep -q "\"url\": \"${NETWORK_URL}\"" <<<"${body}"
}

# seed: admin, the member project and user, Neutron's service user, the catalog.
# Every step looks before it creates, so running it again changes nothing.
seed() {
  log "keystone-manage bootstrap"
  keystone_manage bootstrap bootstrap --bootstrap-password "${ADMIN_PASSWORD}" \
    --bootstrap-admin-url "${AUTH_URL}/" --bootstrap-internal-url "${AUTH_URL}/" \
    --bootstrap-public-url "${AUTH_URL}/" --bootstrap-region-id "${REGION}"
  log "creating project k8s (user k8s-controller, role member), service user neutron, network endpoints"
  AUTH_URL="${AUTH_URL}" NETWORK_URL="${NETWORK_URL}" REGION="${REGION}" \
    ADMIN_PASSWORD="${ADMIN_PASSWORD}" MEMBER_PASSWORD="${MEMBER_PASSWORD}" \
    NEUTRON_PASSWORD="${NEUTRON_PASSWORD}" "${PYTHON}" - <<'PY' || die "seeding keystone failed"
import os
from keystoneauth1 import session, token_endpoint
from keystoneauth1.identity import v3
from keystoneclient.v3 import client

env = os.environ
password = v3.Password(auth_url=env["AUTH_URL"], username="admin", password=env["ADMIN_PASSWORD"],
                       project_name="admin", user_domain_id="default", project_domain_id="default")
# keystoneauth treats a token that lives less than two minutes as stale and fetches a
# new one before every request; with short test lifetimes, take one and keep it.
token = password.get_token(session.Session())
ks = client.Client(session=session.Session(auth=token_endpoint.Token(env["AUTH_URL"], token)),
                   endpoint_override=env["AUTH_URL"])

def project(name, description):
    found = ks.projects.list(name=name, domain="default")
    return found[0] if found else ks.projects.create(name, "default", description=description)

def user(name, password, proj):
    found = ks.users.list(name=name, domain="default")
    if found:
        # The password may have changed with a new state folder; set it again.
        return ks.users.update(found[0], password=password, default_project=proj)
    return ks.users.create(name, domain="default", password=password, default_project=proj)

def role(name):
    return ks.roles.list(name=name)[0]

k8s = project("k8s", "Project of the network-controller")
member = user("k8s-controller", env["MEMBER_PASSWORD"], k8s)
ks.roles.grant(role("member"), user=member, project=k8s)
service = project("service", "OpenStack services")
neutron = user("neutron", env["NEUTRON_PASSWORD"], service)
ks.roles.grant(role("admin"), user=neutron, project=service)

svc = [s for s in ks.services.list(type="network")]
svc = svc[0] if svc else ks.services.create("neutron", "network", description="OpenStack Networking")
have = {e.interface: e for e in ks.endpoints.list(service=svc)}
for interface in ("public", "internal", "admin"):
    e = have.get(interface)
    if e is None:
        ks.endpoints.create(svc, env["NETWORK_URL"], interface=interface, region=env["REGION"])
    elif e.url != env["NETWORK_URL"]:
        ks.endpoints.update(e, url=env["NETWORK_URL"])
PY
}

write_clouds_yaml() {
  local old_umask
  old_umask="$(umask)"
  umask 077
  cat >"${CLOUDS_YAML}.tmp" <<EOF
# Generated by hack/local-keystone.sh for the local Keystone on ${AUTH_URL}.
clouds:
  # The controller's identity: only the member role, in project k8s.
  k8s:
    auth:
      auth_url: ${AUTH_URL}
      username: k8s-controller
      password: ${MEMBER_PASSWORD}
      project_name: k8s
      user_domain_name: Default
      project_domain_name: Default
    region_name: ${REGION}
    interface: public
    identity_api_version: 3
  # The cloud's admin, to look at every project.
  k8s-admin:
    auth:
      auth_url: ${AUTH_URL}
      username: admin
      password: ${ADMIN_PASSWORD}
      project_name: admin
      user_domain_name: Default
      project_domain_name: Default
    region_name: ${REGION}
    interface: public
    identity_api_version: 3
EOF
  mv -f "${CLOUDS_YAML}.tmp" "${CLOUDS_YAML}"
  umask "${old_umask}"
}

# ------------------------------------------------------------------ lock ---

take_lock() {
  mkdir -p "${STATE_DIR}"
  exec 9>"${STATE_DIR}/.lock"
  flock -w 300 9 || die "could not lock ${STATE_DIR}/.lock"
}

# --------------------------------------------------------------- commands ---

cmd_start() {
  local t0=${SECONDS}
  cmd_install
  local t_installed=${SECONDS}
  # MariaDB (and the noauth Neutron) come from hack/local-neutron.sh.
  neutron_script start >/dev/null
  take_lock
  mkdir -p "${LOG_DIR}" "${RUN_DIR}"
  make_passwords
  # shellcheck disable=SC1090
  . "${PASSWORDS}"
  local db_url
  db_url="$(neutron_script db-url keystone)"
  if ! pid_alive "${PIDFILE}" >/dev/null; then
    write_conf "${db_url}"
    prepare_db
  elif [ "$(cat "${SETTINGSFILE}" 2>/dev/null)" != "${PORT} ${EXPIRATION}" ]; then
    write_conf "${db_url}"
  fi
  start_keystone
  seeded || seed
  seeded || die "the member user k8s-controller cannot get a token with the network endpoint ${NETWORK_URL} in its catalog"
  NEUTRON_KEYSTONE_AUTH_URL="${AUTH_URL}" NEUTRON_KEYSTONE_PASSWORD="${NEUTRON_PASSWORD}" \
    neutron_script start-keystone >/dev/null
  write_clouds_yaml
  log "keystone is up on ${AUTH_URL}, Keystone-authenticated Neutron on ${NETWORK_URL} ($((SECONDS - t_installed)) s start, $((SECONDS - t0)) s in all; logs: ${LOG_DIR})"
  log "try: OS_CLIENT_CONFIG_FILE=${CLOUDS_YAML} openstack --os-cloud k8s network list"
  echo "${CLOUDS_YAML}"
}

cmd_stop() {
  [ -d "${STATE_DIR}" ] || return 0
  take_lock
  stop_keystone
}

cmd_status() {
  if api_answers; then
    log "keystone answers on ${AUTH_URL}"
    return 0
  fi
  log "keystone does not answer on ${AUTH_URL}"
  return 1
}

cmd_reset() {
  cmd_stop
  neutron_script stop-keystone
  exec 9>&-
  rm -rf "${STATE_DIR}"
  log "removed ${STATE_DIR}"
}

cmd_env() {
  cat <<EOF
KEYSTONE_AUTH_URL=${AUTH_URL}
KEYSTONE_ACCESS_LOG=${LOG_DIR}/keystone-access.log
KEYSTONE_CLOUDS_YAML=${CLOUDS_YAML}
NEUTRON_KEYSTONE_ENDPOINT=${NETWORK_URL}
EOF
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  env) cmd_env ;;
  *)
    echo "usage: $0 {install|start|stop|status|reset|env}" >&2
    exit 2
    ;;
esac
