#!/usr/bin/env bash
# Run a real OpenStack Keystone (Debian's keystone under uwsgi) on loopback, plus
# neutron-servers that authenticate through it (regions RegionOne and RegionTwo), for
# `make run` and the e2e tests. OPENSTACK_RELEASE says whose, as for hack/local-neutron.sh:
# both run in the root file system of that release (hack/lib/openstack-release.sh), with
# the policy defaults it ships (the policy file is empty).
#
# Usage: hack/local-keystone.sh {install|start|stop|status|reset|env|serve PORT ACCESS_LOG}
#
#   install  apt-get install the host's clients (python3-openstackclient,
#            python3-keystoneclient, curl) and build the release's root when it is
#            missing or stale (no-op when both are there).
#   start    start the local Neutron's MariaDB (hack/local-neutron.sh start), then
#            Keystone, seed it, start the Keystone-authenticated neutron-servers of both
#            regions (hack/local-neutron.sh start-keystone) and write clouds.yaml.
#            Idempotent; prints the clouds.yaml path.
#   stop     stop Keystone (by PID file). The neutron-servers and MariaDB belong to
#            hack/local-neutron.sh (its stop stops them); the Keystone-authenticated
#            ones keep running and answer 503 until Keystone is back, as on a cloud
#            whose Keystone is down.
#   status   exit 0 if Keystone answers and runs OPENSTACK_RELEASE (the build of its root
#            that this start would run), 1 otherwise.
#   reset    stop Keystone and the Keystone-authenticated neutron-servers and delete
#            the state folder (the keystone and neutron_region_two databases stay in the
#            local Neutron's MariaDB until `hack/local-neutron.sh reset`).
#   env      print the settings as shell assignments: KEYSTONE_AUTH_URL, KEYSTONE_ACCESS_LOG,
#            KEYSTONE_CLOUDS_YAML, KEYSTONE_NODE_CLOUDS_YAML (the controller's cloud as Pods on
#            hack/local-node.sh's node reach it), NEUTRON_KEYSTONE_ENDPOINT and NEUTRON_KEYSTONE_LOG (region
#            RegionOne's Keystone-authenticated neutron-server), NEUTRON_REGION_TWO_ENDPOINT
#            and NEUTRON_REGION_TWO_LOG (region RegionTwo's).
#   serve PORT ACCESS_LOG  run one more Keystone on the same database and keys, on PORT,
#            with its request log in ACCESS_LOG, in the foreground (exec: its PID is this
#            one's; stop it with SIGTERM). `start` must have run. Tokens of either are
#            good at both. A test that stops Keystone, or counts the requests Keystone
#            logs, uses one of its own like this, so that the others keep theirs.
#
# Environment:
#   KEYSTONE_PORT              Keystone API port on 127.0.0.1 (default 15000)
#   KEYSTONE_SERVICE_PORT      port of the second Keystone, with hour-long tokens, that the
#                              Keystone-authenticated neutron-servers log in at and check
#                              tokens with (default 15001)
#   NEUTRON_KEYSTONE_PORT      port of the Keystone-authenticated neutron-server, region
#                              RegionOne's network endpoint (default 19697)
#   NEUTRON_REGION_TWO_PORT    port of region RegionTwo's neutron-server, on a database of
#                              its own (default 19698)
#   KEYSTONE_TOKEN_EXPIRATION  token lifetime in seconds (default 3600; the e2e tests use
#                              a short one so that re-authentication really happens)
#   KEYSTONE_STATE_DIR         state folder (default <repo>/_output/local/keystone)
#   KEYSTONE_START_TIMEOUT     seconds to wait for the API (default 60)
#   NEUTRON_PORT, NEUTRON_STATE_DIR  passed on to hack/local-neutron.sh (as are the two
#                              ports above)
#
# What is in it after `start` (passwords are random, made at the first start and kept
# in <state>/passwords, mode 0600):
#   - admin (project admin, role admin) from `keystone-manage bootstrap`;
#   - project "k8s" with user "k8s-controller" holding only the "member" role: the
#     identity the controller runs as (cloud "k8s" in <state>/clouds.yaml; cloud
#     "k8s-admin" is the admin, for looking around);
#   - two tenants' projects, each with a member-role user: "team-a" (user
#     "team-a-user", password; cloud "team-a") and "team-b" (user "team-b-user", who
#     logs in with the application credential "network-controller" it made itself, as
#     service accounts do on real clouds; cloud "team-b");
#   - project "service" with user "neutron" (role admin) that neutron-server's
#     keystonemiddleware uses to validate tokens;
#   - catalog: identity at http://127.0.0.1:KEYSTONE_PORT/v3/, region RegionOne;
#     network (public, internal and admin interfaces) at
#     http://127.0.0.1:NEUTRON_KEYSTONE_PORT/ in region RegionOne and at
#     http://127.0.0.1:NEUTRON_REGION_TWO_PORT/ in region RegionTwo. Every cloud in
#     clouds.yaml has region_name RegionOne.
#
# Why three neutron-servers: the existing tests and quick checks talk to Neutron
# without a token (auth_strategy = noauth, every request admin) to inspect all
# projects. Switching that server to Keystone would make every one of them handle
# tokens. So hack/local-neutron.sh keeps the noauth server on NEUTRON_PORT and runs a
# second neutron-server with auth_strategy = keystone on NEUTRON_KEYSTONE_PORT, on
# the same database: both show the same networks, and only the second one is in
# the catalog, so a client that starts from clouds.yaml meets Keystone and
# Neutron's policies exactly as on a real cloud. The third one, also with
# auth_strategy = keystone, is region RegionTwo's network endpoint: its own database
# (neutron_region_two in the same MariaDB) holds other networks than RegionOne's, as
# another region of a real cloud does; no noauth server looks at it.
#
# Keystone logs every request with its user agent to <state>/log/keystone-access.log;
# the e2e tests count the controller's token requests there (`env` prints its path, and
# those of the Keystone-authenticated neutron-servers' logs, where they count their
# calls). Nothing listens anywhere but 127.0.0.1. The package's own keystone service is
# never started.
set -euo pipefail

# shellcheck source=hack/lib/local-service.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/local-service.sh"

PORT="${KEYSTONE_PORT:-15000}"
NEUTRON_KEYSTONE_PORT="${NEUTRON_KEYSTONE_PORT:-19697}"
NEUTRON_REGION_TWO_PORT="${NEUTRON_REGION_TWO_PORT:-19698}"
EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-3600}"
STATE_DIR="${KEYSTONE_STATE_DIR:-${REPO_ROOT}/_output/local/keystone}"
# The release's commands see both state folders at their own paths, wherever they are.
in_release_binds "${STATE_DIR}" "${NEUTRON_STATE_DIR:-${REPO_ROOT}/_output/local/neutron}"
START_TIMEOUT="${KEYSTONE_START_TIMEOUT:-60}"
HOST=127.0.0.1
AUTH_URL="http://${HOST}:${PORT}/v3"
NETWORK_URL="http://${HOST}:${NEUTRON_KEYSTONE_PORT}/"
# The same neutron-server as Pods on the local node reach it (hack/local-node.sh forwards the
# port from its bridge): the catalog's internal endpoint of REGION, which the Pods' clouds.yaml
# names (interface: internal); nothing else uses it.
# shellcheck source=hack/lib/node/network.sh
source "${REPO_ROOT}/hack/lib/node/network.sh"
NODE_NETWORK_URL="http://${NODE_GATEWAY}:${NEUTRON_KEYSTONE_PORT}/"
NODE_AUTH_URL="http://${NODE_GATEWAY}:${PORT}/v3"
REGION=RegionOne
REGION_TWO=RegionTwo
REGION_TWO_NETWORK_URL="http://${HOST}:${NEUTRON_REGION_TWO_PORT}/"
export NEUTRON_KEYSTONE_PORT NEUTRON_REGION_TWO_PORT

# On the host: the clients (the servers are the release's, hack/lib/openstack-release.sh).
PACKAGES=(python3-keystoneclient python3-openstackclient curl)
# Debian's python with the clients' libraries; a python on PATH (pyenv, venv) lacks them.
PYTHON=/usr/bin/python3

LOG_DIR="${STATE_DIR}/log"
RUN_DIR="${STATE_DIR}/run"
CONF="${STATE_DIR}/keystone.conf"
PASSWORDS="${STATE_DIR}/passwords"
CLOUDS_YAML="${STATE_DIR}/clouds.yaml"
NODE_CLOUDS_YAML="${STATE_DIR}/clouds-node.yaml"
APPCRED_ID_FILE="${STATE_DIR}/team-b-appcred-id"
PIDFILE="${RUN_DIR}/keystone.pid"
SETTINGSFILE="${RUN_DIR}/keystone.settings"
# What a running Keystone must have been started with: the port, the token lifetime,
# this script (which writes its configuration) and the release's root it runs from
# (cmd_start adds it once hack/local-neutron.sh start has made sure the root is built).
SETTINGS="${PORT} ${EXPIRATION} $(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
SERVICE_PORT="${KEYSTONE_SERVICE_PORT:-15001}"
SERVICE_AUTH_URL="http://${HOST}:${SERVICE_PORT}/v3"
SERVICE_CONF="${STATE_DIR}/keystone-service.conf"
SERVICE_PIDFILE="${RUN_DIR}/keystone-service.pid"
KEYS_STAMP="${STATE_DIR}/.keys-ready"

for v in PORT SERVICE_PORT NEUTRON_KEYSTONE_PORT NEUTRON_REGION_TWO_PORT EXPIRATION START_TIMEOUT; do
  case "${!v}" in '' | *[!0-9]*) die "${v} must be a number, got '${!v}'" ;; esac
done

# shellcheck source=hack/lib/keystone-seed.sh
source "${SCRIPT_DIR}/lib/keystone-seed.sh"

neutron_script() { "${SCRIPT_DIR}/local-neutron.sh" "$@"; }

api_answers() {
  curl -sf -o /dev/null --max-time 5 "${AUTH_URL}/"
}

keystone_running() {
  pid_alive "${PIDFILE}" uwsgi "${CONF}" >/dev/null
}

service_answers() {
  curl -sf -o /dev/null --max-time 5 "${SERVICE_AUTH_URL}/"
}

# The settings file tells a restart whether the running Keystone has today's settings.
stop_keystone() {
  stop_proc keystone-service "${SERVICE_PIDFILE}" uwsgi "${SERVICE_CONF}"
  stop_proc keystone "${PIDFILE}" uwsgi "${CONF}"
  rm -f "${SETTINGSFILE}"
}

# ----------------------------------------------------------------- config ---

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

[identity]
# bcrypt's lowest cost: a token request checks a password, and with short-lived tokens
# the tests ask for hundreds; at the default cost Keystone alone took most of a core.
password_hash_rounds = 4

[token]
provider = fernet
expiration = ${EXPIRATION}

[security_compliance]
# As many clouds do: a user refused 3 times in a row is locked out (for 10 minutes
# here, so that a mistake does not outlive a test run). The controller must never be
# the cause.
lockout_failure_attempts = 3
lockout_duration = 600

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
  if ! "${IN_RELEASE[@]}" keystone-manage --config-file "${CONF}" "$@" >>"${LOG_DIR}/keystone-manage.log" 2>&1; then
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

# uwsgi_keystone: sets UWSGI_KEYSTONE, Keystone under uwsgi, without its port and logs.
# The request log carries the user agent, so clients can be told apart. One thread per
# process: Keystone's libraries use eventlet, whose locks hang uwsgi's worker for good
# ("greenlet.error: cannot switch to a different thread") when two threads share them.
# The application is the release's keystone-wsgi-public script where it ships one, else
# its module keystone.wsgi.api (the newest releases ship only that).
uwsgi_keystone() {
  local app=(--module keystone.wsgi.api:application)
  [ ! -f "${RELEASE_ROOT}/usr/bin/keystone-wsgi-public" ] || app=(--wsgi-file /usr/bin/keystone-wsgi-public)
  UWSGI_KEYSTONE=("${IN_RELEASE[@]}" uwsgi --plugins python3,logfile --master --processes 2 --threads 1 --die-on-term
    --add-header "Connection: close" --need-app "${app[@]}"
    --logformat '%(ltime) %(addr) %(method) %(uri) %(status) %(msecs)ms ua="%(uagent)"')
}

start_keystone() {
  if keystone_running; then
    if [ "$(cat "${SETTINGSFILE}" 2>/dev/null)" = "${SETTINGS}" ]; then
      return 0
    fi
    log "keystone runs with other settings ($(cat "${SETTINGSFILE}" 2>/dev/null)); restarting it"
    stop_keystone
  fi
  if api_answers; then
    die "something else already answers on ${AUTH_URL} (not our keystone); set KEYSTONE_PORT"
  fi
  log "starting keystone on ${AUTH_URL} (token lifetime ${EXPIRATION} s)"
  uwsgi_keystone
  start_detached "${PIDFILE}" "${LOG_DIR}/uwsgi.out" \
    "${UWSGI_KEYSTONE[@]}" --pyargv "--config-file ${CONF}" --http11-socket "${HOST}:${PORT}" \
    --logger "file:${LOG_DIR}/uwsgi.log" --req-logger "file:${LOG_DIR}/keystone-access.log"
  echo "${SETTINGS}" >"${SETTINGSFILE}"
  wait_answering keystone "${PIDFILE}" api_answers && return 0
  log "keystone did not answer on ${AUTH_URL} within ${START_TIMEOUT} s; last log lines:"
  tail -n 30 "${LOG_DIR}/uwsgi.log" "${LOG_DIR}/keystone.log" >&2 2>/dev/null || true
  stop_keystone
  die "start failed"
}

# start_service_keystone: the Keystone the Keystone-authenticated neutron-servers log in at
# and check tokens with: the same database and keys, but tokens of an hour. With the short
# tokens of the e2e tests, keystonemiddleware would log in again before nearly every check
# (keystoneauth renews a token due to expire within 2 minutes), which doubled Keystone's work.
# A token's expiry is in the token, so this one checks the 45-second tokens of the others
# exactly as they do.
start_service_keystone() {
  printf '# Generated by hack/local-keystone.sh -- do not edit.\n[token]\nexpiration = 3600\n' >"${SERVICE_CONF}"
  if pid_alive "${SERVICE_PIDFILE}" uwsgi "${SERVICE_CONF}" >/dev/null; then
    return 0
  fi
  if service_answers; then
    die "something else already answers on ${SERVICE_AUTH_URL} (not our keystone); set KEYSTONE_SERVICE_PORT"
  fi
  log "starting the Keystone of the neutron-servers on ${SERVICE_AUTH_URL}"
  uwsgi_keystone
  start_detached "${SERVICE_PIDFILE}" "${LOG_DIR}/uwsgi-service.out" \
    "${UWSGI_KEYSTONE[@]}" --pyargv "--config-file ${CONF} --config-file ${SERVICE_CONF}" \
    --http11-socket "${HOST}:${SERVICE_PORT}" \
    --logger "file:${LOG_DIR}/uwsgi-service.log" --req-logger "file:${LOG_DIR}/keystone-service-access.log"
  wait_answering keystone-service "${SERVICE_PIDFILE}" service_answers && return 0
  tail -n 30 "${LOG_DIR}/uwsgi-service.log" >&2 2>/dev/null || true
  stop_keystone
  die "the Keystone of the neutron-servers did not answer on ${SERVICE_AUTH_URL} within ${START_TIMEOUT} s"
}

# --------------------------------------------------------------- commands ---

cmd_install() {
  install_packages "${PACKAGES[@]}"
  ensure_release_root
}

cmd_start() {
  local t0=${SECONDS}
  cmd_install
  local t_installed=${SECONDS}
  # MariaDB (and the noauth Neutron) come from hack/local-neutron.sh.
  neutron_script start >/dev/null
  SETTINGS="${SETTINGS} $(release_build_id)"
  take_lock "${STATE_DIR}/.lock"
  mkdir -p "${LOG_DIR}" "${RUN_DIR}"
  make_passwords
  # shellcheck disable=SC1090
  . "${PASSWORDS}"
  local db_url
  db_url="$(neutron_script db-url keystone)"
  if keystone_running && [ "$(cat "${SETTINGSFILE}" 2>/dev/null)" != "${SETTINGS}" ]; then
    # Another release's Keystone has another schema: db_sync below, before it starts.
    log "keystone runs with other settings ($(cat "${SETTINGSFILE}" 2>/dev/null)); restarting it"
    stop_keystone
  fi
  if ! keystone_running; then
    write_conf "${db_url}"
    prepare_db
  fi
  start_keystone
  seeded || seed
  seeded || die "the member users (k8s-controller, team-a-user, team-b's application credential) cannot get tokens, or the catalog lacks the network endpoints ${NETWORK_URL} (${REGION}) or ${REGION_TWO_NETWORK_URL} (${REGION_TWO})"
  start_service_keystone
  NEUTRON_KEYSTONE_AUTH_URL="${SERVICE_AUTH_URL}" NEUTRON_KEYSTONE_PASSWORD="${NEUTRON_PASSWORD}" \
    neutron_script start-keystone >/dev/null
  write_clouds_yaml
  log "keystone is up on ${AUTH_URL}, Keystone-authenticated Neutron on ${NETWORK_URL} (${REGION}) and ${REGION_TWO_NETWORK_URL} (${REGION_TWO}) ($((SECONDS - t_installed)) s start, $((SECONDS - t0)) s in all; logs: ${LOG_DIR})"
  log "try: OS_CLIENT_CONFIG_FILE=${CLOUDS_YAML} openstack --os-cloud k8s network list"
  echo "${CLOUDS_YAML}"
}

cmd_stop() {
  [ -d "${STATE_DIR}" ] || return 0
  take_lock "${STATE_DIR}/.lock"
  stop_keystone
}

cmd_status() {
  if api_answers; then
    local running
    running="$(cat "${SETTINGSFILE}" 2>/dev/null || true)"
    if [[ "${running}" != *" $(release_build_id)" ]]; then
      log "keystone answers on ${AUTH_URL}, but was not started for OpenStack $(release_build_id) (its settings: ${running:-unknown})"
      return 1
    fi
    log "keystone answers on ${AUTH_URL}"
    return 0
  fi
  log "keystone does not answer on ${AUTH_URL}"
  return 1
}

cmd_serve() {
  local port=${1:-} access_log=${2:-}
  case "${port}" in '' | *[!0-9]*) die "serve needs a port number, got '${port}'" ;; esac
  case "${access_log}" in /*) ;; *) die "serve needs an absolute request log path, got '${access_log}'" ;; esac
  [ "${port}" != "${PORT}" ] || die "port ${port} is the shared Keystone's"
  [ -f "${CONF}" ] || die "no ${CONF}: run '$0 start' first"
  uwsgi_keystone
  exec "${UWSGI_KEYSTONE[@]}" --pyargv "--config-file ${CONF}" --http11-socket "${HOST}:${port}" \
    --logger "file:${access_log%.log}-uwsgi.log" --req-logger "file:${access_log}"
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
KEYSTONE_NODE_CLOUDS_YAML=${NODE_CLOUDS_YAML}
NEUTRON_KEYSTONE_ENDPOINT=${NETWORK_URL}
NEUTRON_KEYSTONE_LOG=${NEUTRON_STATE_DIR:-${REPO_ROOT}/_output/local/neutron}/log/neutron-server-keystone.log
NEUTRON_REGION_TWO_ENDPOINT=${REGION_TWO_NETWORK_URL}
NEUTRON_REGION_TWO_LOG=${NEUTRON_STATE_DIR:-${REPO_ROOT}/_output/local/neutron}/log/neutron-server-region-two.log
EOF
}

dispatch '{install|start|stop|status|reset|env|serve PORT ACCESS_LOG}' "$@"
