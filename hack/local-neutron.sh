#!/usr/bin/env bash
# Run a real OpenStack Neutron API server (Debian's neutron-server) on loopback,
# backed by a private MariaDB (unix socket only), for e2e tests and `make run`.
# OPENSTACK_RELEASE (2022.2, 2025.1 (the default) or newest) says whose: the servers run
# in a root file system of that release's Debian suite (hack/lib/openstack-release.sh),
# built at the first start and kept outside the clone.
#
# Usage: hack/local-neutron.sh {install|start|stop|status|versions|reset|db-url NAME|start-keystone|stop-keystone|serve PORT LOG_FILE}
#
#   install  apt-get install the host's clients (curl, python3, mariadb-client) and build
#            the release's root when it is missing or stale (no-op when both are there).
#   start    install if needed, then start MariaDB + neutron-server from the
#            private state folder and wait until the API answers. Idempotent: a
#            server that runs with the config this script generates is left running;
#            one that runs with an older neutron.conf or ml2_conf.ini (or from another
#            release's root) is restarted, and the Keystone-authenticated ones (which
#            read them too) with it. Prints the release and its packages' versions.
#   versions print the release and the versions of its servers' packages (one line).
#   stop     stop neutron-server and MariaDB (by PID file), whichever release they run.
#            Idempotent.
#   status   exit 0 if the API answers and runs OPENSTACK_RELEASE (the build of its root
#            that this start would run), 1 otherwise.
#   reset    stop and delete the state folder.
#   db-url NAME     create database NAME in the private MariaDB (which must run) if
#                   missing and print its SQLAlchemy URL (hack/local-keystone.sh uses it).
#   start-keystone  also run two neutron-servers with auth_strategy = keystone, validating
#                   tokens at NEUTRON_KEYSTONE_AUTH_URL as user "neutron" of project
#                   "service" with NEUTRON_KEYSTONE_PASSWORD: a second one on the same
#                   database, on NEUTRON_KEYSTONE_PORT (default 19697), region RegionOne's
#                   network endpoint; and a third one, region RegionTwo's, on
#                   NEUTRON_REGION_TWO_PORT (default 19698) with a database of its own,
#                   neutron_region_two (created and migrated when missing), so that it
#                   holds other networks. Prints the second one's endpoint. Once started,
#                   `start` starts them again (after a `stop`) until `stop-keystone`.
#                   Both run keystonemiddleware's audit middleware after authtoken (in
#                   an api-paste.ini of their own, <state>/api-paste-keystone.ini, with
#                   the audit map <state>/neutron-audit-map.conf), which logs every API
#                   request with the client's User-Agent and the request IDs (see
#                   write_audit_config in hack/lib/neutron-keystone.sh); `start` and
#                   `start-keystone` restart them when those files changed.
#                   Normally run by hack/local-keystone.sh start.
#   stop-keystone   stop those two servers and forget them (database neutron_region_two
#                   stays until `reset`).
#   serve PORT LOG_FILE  run one more noauth neutron-server on the same database, on PORT,
#                   logging to LOG_FILE, in the foreground (exec: its PID is this one's; stop
#                   it with SIGTERM). `start` must have run. A test that stops or delays
#                   Neutron does it to a server of its own like this, so that the others
#                   keep theirs.
#
# Environment:
#   NEUTRON_PORT       API port on 127.0.0.1 (default 19696)
#   NEUTRON_STATE_DIR  state folder (default <repo>/_output/local/neutron)
#   NEUTRON_START_TIMEOUT  seconds to wait for the API (default 60)
#   NEUTRON_KEYSTONE_PORT  port of the Keystone-authenticated server (default 19697)
#   NEUTRON_REGION_TWO_PORT  port of region RegionTwo's server (default 19698)
#   NEUTRON_API_WORKERS  API worker processes of the shared noauth server (default the
#                   fewest the release takes: 0 on 2022.2, where the server's own process
#                   serves every request, 1 on later releases, which refuse 0 and serve
#                   in one child process; either way the API keeps to one core of a
#                   2-core machine, the other left to the apiserver and etcd the
#                   controller writes to; Neutron's own default is one per core). The
#                   servers of serve and start-keystone run with that fewest too; tests
#                   stop them by process group.
#   OPENSTACK_RELEASE, OPENSTACK_RELEASE_CACHE, OPENSTACK_RELEASE_MIRROR,
#   OPENSTACK_NEWEST_MAX_DAYS  which release, and where and how its root is built
#                   (hack/lib/openstack-release.sh)
#
# The server runs with auth_strategy=noauth
# (every request is admin in project "fake_project_id"), core_plugin=ml2 with
# network type "local" and no mechanism drivers or agents (ports stay DOWN,
# unbound), transport_url=fake:/ (no RabbitMQ), quotas unlimited (-1).
# Routers: the L3 service plugin "router" is on, so routers, their interfaces and
# external gateways can be made through the API; no L3 agent runs, so they route
# nothing. The ML2 extension driver port_security is on (port_security_enabled on
# networks and ports). RBAC policies (/v2.0/rbac-policies) are part of ml2. QoS: the
# service plugin "qos" and the ML2 extension driver qos are on, so QoS policies can be
# made, shared (RBAC, object type qos_policy) and set on networks (qos_policy_id); with no
# agent, their rules are enforced nowhere. DNS: the ML2 extension driver dns is on
# (extension dns-integration), so networks have dns_domain (and ports dns_name and
# dns_assignment); with no external DNS driver, nothing is published anywhere. The
# network's dns_domain needs no dns_domain in [DEFAULT] (only ports' names use that one).
# The tag extension (standard-attr-tag) is on; note that Neutron rejects "tags" in the
# POST body of a network or subnet on every release (set them with PUT .../tags afterwards).
# Subnet pools: `start` makes sure the cloud has two shared subnet pools, made by the
# (noauth) admin, so that every project, the Keystone tests' member users included,
# can allocate subnets from them as on a real cloud: "ipv6-pool" (2001:db8:a000::/40,
# prefix lengths 56 to 64, default 64) and "ipv4-pool" (10.224.0.0/16, 22 to 28, default
# 26). They are looked up by name and made only when missing; one of that name with
# other prefixes is left as it is, with a warning.
# External network: `start` also makes sure the cloud has one external network, made by
# the (noauth) admin in its project, so that every project's routers can have a gateway
# on it as on a real cloud: "public" (router:external, not shared, provider type flat
# on physical network "public"), with one subnet "public-subnet", 203.0.113.0/24
# (gateway 203.0.113.1, allocation pool 203.0.113.10-203.0.113.250, no DHCP). Every
# project sees it in its network list (router:external), and a router's gateway takes an
# address from the pool. The e2e tests find it by these two names (PublicNetwork in
# test/e2e/framework_public.go). It is looked up by name and made when missing; one that lacks
# router:external, is shared, or lacks its subnet or the subnet's settings is set right;
# one of another type or physical network, or with other subnets, fails the start.
# Only the noauth server's database holds it (region RegionTwo's has none).
# Nothing listens anywhere but 127.0.0.1; MariaDB has no TCP listener at all.
# The packages' own services and the system-wide MariaDB are never used.
# Logs: <state>/log/ (neutron-server.log, and neutron-server-keystone.log and
# neutron-server-region-two.log for the servers of start-keystone, which also hold their
# audit lines, "INFO audit [...] Event type: audit.http.request, ..." and
# "... audit.http.response ...", two a request; the .out files hold harmless tracebacks
# from the segments plugin trying to reach Nova/Placement).
set -euo pipefail

# shellcheck source=hack/lib/local-service.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/local-service.sh"

PORT="${NEUTRON_PORT:-19696}"
STATE_DIR="${NEUTRON_STATE_DIR:-${REPO_ROOT}/_output/local/neutron}"
# The release's commands see the state folder at its own path, wherever it is.
in_release_binds "${STATE_DIR}"
START_TIMEOUT="${NEUTRON_START_TIMEOUT:-60}"
HOST=127.0.0.1
ENDPOINT="http://${HOST}:${PORT}/"

# On the host: the clients of the scripts and the tests (the servers are the release's,
# hack/lib/openstack-release.sh). mariadb-client: tests read the private MariaDB.
PACKAGES=(curl python3 mariadb-client)
# Debian's python, for the standard-library scripts below; a python on PATH (pyenv,
# venv) may be another.
PYTHON=/usr/bin/python3

# The shared subnet pools: name, IP version, prefix, default, min and max prefix length.
# test/e2e/framework_pools.go finds them by these names; no e2e test uses these ranges
# otherwise.
SUBNET_POOLS=(
  "ipv6-pool 6 2001:db8:a000::/40 64 56 64"
  "ipv4-pool 4 10.224.0.0/16 26 22 28"
)

# The external network (see the header): test/e2e/framework_public.go finds it by
# PUBLIC_NETWORK and PUBLIC_SUBNET; no e2e test uses its range otherwise (TEST-NET-3).
PUBLIC_NETWORK=public
PUBLIC_PHYSNET=public
PUBLIC_SUBNET=public-subnet
PUBLIC_CIDR=203.0.113.0/24
PUBLIC_GATEWAY=203.0.113.1
PUBLIC_POOL_START=203.0.113.10
PUBLIC_POOL_END=203.0.113.250

LOG_DIR="${STATE_DIR}/log"
RUN_DIR="${STATE_DIR}/run"
NEUTRON_CONF="${STATE_DIR}/neutron.conf"
# The shared noauth server's own settings, read after NEUTRON_CONF by it alone.
SHARED_CONF="${STATE_DIR}/neutron-server-shared.conf"
API_WORKERS="${NEUTRON_API_WORKERS:-${RELEASE_API_WORKERS_MIN}}"
ML2_CONF="${STATE_DIR}/ml2_conf.ini"
NEUTRON_PIDFILE="${RUN_DIR}/neutron-server.pid"
NEUTRON_PORTFILE="${RUN_DIR}/neutron-server.port"
# Per release: each has a MariaDB datadir of its own (hack/lib/mariadb.sh), since a
# schema is migrated forwards only.
DB_CREATED_STAMP="${STATE_DIR}/.db-created-${OPENSTACK_RELEASE}"
DB_STAMP="${STATE_DIR}/.db-migrated-${OPENSTACK_RELEASE}"
# Which build of which release the running servers were started from (release_build_id).
RUNNING_RELEASE_FILE="${RUN_DIR}/release"

case "${PORT}" in
  '' | *[!0-9]*) die "NEUTRON_PORT must be a number, got '${PORT}'" ;;
esac

# shellcheck source=hack/lib/neutron-keystone.sh
source "${SCRIPT_DIR}/lib/neutron-keystone.sh"
# shellcheck source=hack/lib/mariadb.sh
source "${SCRIPT_DIR}/lib/mariadb.sh"

api_answers() {
  curl -sf -o /dev/null --max-time 5 "http://${HOST}:${PORT}/v2.0/networks"
}

# ---------------------------------------------------------------- neutron ---

# find_api_paste: the path, inside the release's root, of Neutron's api-paste.ini.
find_api_paste() {
  local f
  # The pristine packaged copy first (/etc/neutron's is a local conffile).
  for f in /usr/share/neutron-common/api-paste.ini /etc/neutron/api-paste.ini; do
    [ -f "${RELEASE_ROOT}$f" ] && { echo "$f"; return 0; }
  done
  die "cannot find Neutron's api-paste.ini in ${RELEASE_ROOT}"
}

# write_neutron_conf: writes neutron.conf and ml2_conf.ini, which every neutron-server
# reads (the Keystone-authenticated ones too). Returns 1 when both already had these
# contents: a running server keeps what it started with, so a change means a restart.
write_neutron_conf() {
  local api_paste
  # exit: callers test the return code, which turns set -e off in here.
  api_paste="$(find_api_paste)" || exit 1
  cat >"${NEUTRON_CONF}.tmp" <<EOF
# Generated by hack/local-neutron.sh -- do not edit, rewritten on every start.
# OpenStack $(release_build_id) (a server started from another build is restarted).
[DEFAULT]
host = local-neutron
bind_host = ${HOST}
bind_port = ${PORT}
auth_strategy = noauth
core_plugin = ml2
# router: Neutron's L3 plugin, for routers made through the API only (no L3 agent runs,
# so they forward nothing). qos: QoS policies, set on networks through ML2's qos
# extension driver. tag, timestamp, revisions, ... are default service plugins of ml2,
# loaded besides.
service_plugins = router,qos
api_paste_config = ${api_paste}
transport_url = fake:/
api_workers = ${RELEASE_API_WORKERS_MIN}
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
connection = $(mysql_database_url neutron)
max_pool_size = 20
max_overflow = 50

[quotas]
quota_network = -1
quota_subnet = -1
quota_port = -1
quota_router = -1
quota_floatingip = -1
quota_rbac_policy = -1
quota_security_group = -1
quota_security_group_rule = -1

[oslo_concurrency]
lock_path = ${STATE_DIR}/lock

[oslo_messaging_notifications]
driver = noop

[agent]
root_helper = /bin/false
EOF

  cat >"${ML2_CONF}.tmp" <<EOF
# Generated by hack/local-neutron.sh -- ML2 without mechanism drivers/agents.
[ml2]
type_drivers = local,flat,vlan
tenant_network_types = local
mechanism_drivers =
extension_drivers = port_security,qos,dns

[ml2_type_flat]
flat_networks = *

[ml2_type_vlan]
network_vlan_ranges =

[securitygroup]
enable_security_group = true
EOF

  case "${API_WORKERS}" in '' | *[!0-9]*) die "NEUTRON_API_WORKERS must be a number, got '${API_WORKERS}'" ;; esac
  # With API workers the server forks them after loading; stop_proc stops its process
  # group, so they go with it.
  printf '# Generated by hack/local-neutron.sh -- the shared noauth server only.\n[DEFAULT]\napi_workers = %s\n' \
    "${API_WORKERS}" >"${SHARED_CONF}.tmp"

  replace_changed "${NEUTRON_CONF}" "${ML2_CONF}" "${SHARED_CONF}"
}

neutron_version() {
  dpkg-query --admindir="${RELEASE_ROOT}/var/lib/dpkg" -W -f='${Version}' python3-neutron 2>/dev/null || echo unknown
}

prepare_db() {
  if [ ! -f "${DB_CREATED_STAMP}" ]; then
    mysql_client -e 'CREATE DATABASE IF NOT EXISTS neutron' || fail_start
    touch "${DB_CREATED_STAMP}"
  fi
  local want
  want="$(neutron_version)"
  if [ -f "${DB_STAMP}" ] && [ "$(cat "${DB_STAMP}")" = "${want}" ]; then
    return 0
  fi
  log "running neutron-db-manage upgrade heads"
  if ! "${IN_RELEASE[@]}" neutron-db-manage --config-file "${NEUTRON_CONF}" --config-file "${ML2_CONF}" \
    upgrade heads >"${LOG_DIR}/neutron-db-manage.log" 2>&1; then
    tail -n 40 "${LOG_DIR}/neutron-db-manage.log" >&2 || true
    log "neutron-db-manage failed"
    fail_start
  fi
  echo "${want}" >"${DB_STAMP}"
}

STARTED_NEUTRON=0

# neutron_api_argv PORT CONF...: sets NEUTRON_API to the command of a Neutron API server
# on PORT that reads the CONFs: the release's neutron-server where its packages ship one
# (it takes the port from the CONFs), else Neutron's WSGI application under uWSGI, as
# those releases serve it, with the access line of every request that neutron-server
# wrote (hack/lib/neutron_uwsgi.py; its --lazy-apps worker opens its own database
# connections). Either way, the server's command line holds the CONFs' paths, by which
# the PID files' checks know it.
neutron_api_argv() {
  local port=$1 conf args=()
  shift
  for conf in "$@"; do
    args+=(--config-file "${conf}")
  done
  if [ -x "${RELEASE_ROOT}/usr/bin/neutron-server" ]; then
    NEUTRON_API=("${IN_RELEASE[@]}" neutron-server "${args[@]}")
  else
    NEUTRON_API=("${IN_RELEASE[@]}" uwsgi --plugins python3 --master --processes 1 --threads 1
      --lazy-apps --die-on-term --need-app --http11-socket "${HOST}:${port}"
      --add-header "Connection: close" --disable-logging
      --pythonpath "${SCRIPT_DIR}/lib" --module neutron_uwsgi:application --pyargv "${args[*]}")
  fi
}

start_neutron() {
  clean_stale_pidfile "${NEUTRON_PIDFILE}" neutron-server
  if ! pid_alive "${NEUTRON_PIDFILE}" neutron-server >/dev/null; then
    if api_answers; then
      log "something else already answers on ${ENDPOINT} (not our neutron-server); set NEUTRON_PORT"
      fail_start
    fi
    log "starting neutron-server on ${ENDPOINT}"
    neutron_api_argv "${PORT}" "${NEUTRON_CONF}" "${ML2_CONF}" "${SHARED_CONF}"
    start_detached "${NEUTRON_PIDFILE}" "${LOG_DIR}/neutron-server.out" "${NEUTRON_API[@]}"
    echo "${PORT}" >"${NEUTRON_PORTFILE}"
    STARTED_NEUTRON=1
  fi
  wait_answering neutron-server "${NEUTRON_PIDFILE}" api_answers && return 0
  log "neutron-server did not answer on ${ENDPOINT} within ${START_TIMEOUT} s; last log lines:"
  tail -n 40 "${LOG_DIR}/neutron-server.log" >&2 2>/dev/null || true
  tail -n 10 "${LOG_DIR}/neutron-server.out" >&2 2>/dev/null || true
  fail_start
}

# ensure_subnet_pools: the shared subnet pools of SUBNET_POOLS exist (see the header).
# Runs with the state lock held, so two starts at once cannot make one twice. Logs to
# stderr only: `start` prints the endpoint on stdout, and callers capture it.
ensure_subnet_pools() {
  POOLS="$(printf '%s\n' "${SUBNET_POOLS[@]}")" LOG_PREFIX="${LOG_PREFIX}" \
    "${PYTHON}" - "${ENDPOINT}" <<'PY' >&2
import json, os, sys, urllib.parse, urllib.request

endpoint = sys.argv[1]
prefix = os.environ["LOG_PREFIX"] + ": "

def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(endpoint + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

for line in os.environ["POOLS"].split("\n"):
    if not line.strip():
        continue
    name, version, cidr, default, low, high = line.split()
    found = call("GET", "v2.0/subnetpools?" + urllib.parse.urlencode({"name": name}))["subnetpools"]
    if found:
        if len(found) > 1 or found[0]["prefixes"] != [cidr] or not found[0]["shared"]:
            print(prefix + "WARNING: found %d subnet pool(s) named %s, not the one shared pool of %s this script makes: %s"
                  % (len(found), name, cidr, [(p["id"], p["prefixes"], p["shared"]) for p in found]), flush=True)
        continue
    made = call("POST", "v2.0/subnetpools", {"subnetpool": {
        "name": name, "prefixes": [cidr], "shared": True, "default_prefixlen": int(default),
        "min_prefixlen": int(low), "max_prefixlen": int(high),
        "description": "Shared subnet pool of the local cloud (hack/local-neutron.sh)"}})["subnetpool"]
    if made["ip_version"] != int(version):
        sys.exit(prefix + "subnet pool %s has IP version %s, want %s" % (name, made["ip_version"], version))
    print(prefix + "made the shared IPv%s subnet pool %s (%s, %s)" % (version, name, cidr, made["id"]), flush=True)
PY
}

# ensure_public_network: the external network PUBLIC_NETWORK and its one subnet exist
# (see the header). As ensure_subnet_pools: with the state lock held, idempotent, logs to
# stderr only. A network of that name that is no external network, or is shared, is
# made so; a missing subnet is made and a subnet's gateway, allocation pool or DHCP
# set back. What cannot be set right (another type or physical network, several networks
# of that name, other subnets on it) fails the start, naming what is wrong.
ensure_public_network() {
  NAME="${PUBLIC_NETWORK}" PHYSNET="${PUBLIC_PHYSNET}" SUBNET="${PUBLIC_SUBNET}" \
    CIDR="${PUBLIC_CIDR}" GATEWAY="${PUBLIC_GATEWAY}" POOL_START="${PUBLIC_POOL_START}" \
    POOL_END="${PUBLIC_POOL_END}" LOG_PREFIX="${LOG_PREFIX}" \
    "${PYTHON}" - "${ENDPOINT}" <<'PY' >&2
import json, os, sys, urllib.error, urllib.parse, urllib.request

endpoint = sys.argv[1]
env = os.environ
prefix = env["LOG_PREFIX"] + ": "
name, physnet = env["NAME"], env["PHYSNET"]
subnet_name, cidr, gateway = env["SUBNET"], env["CIDR"], env["GATEWAY"]
pools = [{"start": env["POOL_START"], "end": env["POOL_END"]}]

def settings(fix):
    return ", ".join("%s %s" % (k, json.dumps(v)) for k, v in sorted(fix.items()))

def fail(message):
    sys.exit(prefix + "ERROR: " + message)

def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(endpoint + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        fail("%s %s: %d %s" % (method, path, e.code, e.read().decode(errors="replace")))

found = call("GET", "v2.0/networks?" + urllib.parse.urlencode({"name": name}))["networks"]
if len(found) > 1:
    fail("%d networks are named %s (%s), want one external network: delete the others"
         % (len(found), name, ", ".join(n["id"] for n in found)))
if not found:
    net = call("POST", "v2.0/networks", {"network": {
        "name": name, "router:external": True, "shared": False,
        "provider:network_type": "flat", "provider:physical_network": physnet,
        "description": "External network of the local cloud (hack/local-neutron.sh)"}})["network"]
    print(prefix + "made the external network %s (flat on physical network %s, %s)" % (name, physnet, net["id"]), flush=True)
else:
    net = found[0]
    if net.get("provider:network_type") != "flat" or net.get("provider:physical_network") != physnet:
        fail("network %s (%s) is of type %s on physical network %s, want flat on %s: delete it (and the routers' gateways on it) and start again"
             % (name, net["id"], net.get("provider:network_type"), net.get("provider:physical_network"), physnet))
    fix = {}
    if not net.get("router:external"):
        fix["router:external"] = True
    if net.get("shared"):
        fix["shared"] = False
    if fix:
        net = call("PUT", "v2.0/networks/" + net["id"], {"network": fix})["network"]
        print(prefix + "external network %s (%s) set right: %s" % (name, net["id"], settings(fix)), flush=True)
    if not net.get("router:external") or net.get("shared"):
        fail("network %s (%s) is still router:external %s, shared %s" % (name, net["id"], net.get("router:external"), net.get("shared")))

subnets = call("GET", "v2.0/subnets?" + urllib.parse.urlencode({"network_id": net["id"]}))["subnets"]
others = [s for s in subnets if s["cidr"] != cidr]
if others or len(subnets) > 1:
    fail("network %s (%s) has the subnets %s, want only %s (%s): delete the others"
         % (name, net["id"], [(s["id"], s["name"], s["cidr"]) for s in subnets], subnet_name, cidr))
if not subnets:
    sub = call("POST", "v2.0/subnets", {"subnet": {
        "network_id": net["id"], "name": subnet_name, "ip_version": 4, "cidr": cidr,
        "gateway_ip": gateway, "allocation_pools": pools, "enable_dhcp": False}})["subnet"]
    print(prefix + "made the external subnet %s (%s, gateway %s, %s)" % (subnet_name, cidr, gateway, sub["id"]), flush=True)
else:
    sub = subnets[0]
    fix = {}
    if sub["name"] != subnet_name:
        fix["name"] = subnet_name
    if sub["gateway_ip"] != gateway:
        fix["gateway_ip"] = gateway
    if sub["allocation_pools"] != pools:
        fix["allocation_pools"] = pools
    if sub["enable_dhcp"]:
        fix["enable_dhcp"] = False
    if fix:
        call("PUT", "v2.0/subnets/" + sub["id"], {"subnet": fix})
        print(prefix + "subnet %s (%s) of network %s set right: %s" % (subnet_name, sub["id"], name, settings(fix)), flush=True)
PY
}

# Stop only what this invocation started, then fail.
fail_start() {
  # No words: these PIDs are known to be ours (maybe not exec'd yet).
  if [ "${STARTED_NEUTRON}" = 1 ]; then
    stop_proc neutron-server "${NEUTRON_PIDFILE}"
    rm -f "${NEUTRON_PORTFILE}"
  fi
  if [ "${STARTED_MYSQL}" = 1 ]; then
    stop_proc mariadbd "${MYSQL_PIDFILE}"
  fi
  die "start failed"
}

# --------------------------------------------------------------- commands ---

cmd_install() {
  install_packages "${PACKAGES[@]}"
  ensure_release_root
}

cmd_start() {
  # apt-get's output goes to stderr: stdout is the endpoint only.
  cmd_install >&2
  take_lock "${STATE_DIR}/.lock"
  log "the local cloud runs $(release_versions_line)"
  mkdir -p "${MYSQL_DIR}" "${LOG_DIR}" "${RUN_DIR}" "${STATE_DIR}/tmp" \
    "${STATE_DIR}/lib" "${STATE_DIR}/lock"
  clean_stale_pidfile "${NEUTRON_PIDFILE}" neutron-server
  clean_stale_pidfile "${MYSQL_PIDFILE}" mariadbd
  local pid="" running_port
  if pid="$(pid_alive "${NEUTRON_PIDFILE}" neutron-server)"; then
    running_port="$(cat "${NEUTRON_PORTFILE}" 2>/dev/null || true)"
    if [ -n "${running_port}" ] && [ "${running_port}" != "${PORT}" ]; then
      die "neutron-server (pid ${pid}) already runs on port ${running_port}; run '$0 stop' first or use NEUTRON_PORT=${running_port}"
    fi
  fi
  # A running server keeps the config it started with: when the generated one changed
  # (this script's, say), restart every server that reads it. "already running" tells
  # hack/lib/start-if-needed.sh that this start did not bring it up.
  if write_neutron_conf; then
    if [ -n "${pid}" ]; then
      log "neutron-server already running (pid ${pid}) with an older $(basename "${NEUTRON_CONF}") or $(basename "${ML2_CONF}"); restarting it"
      stop_proc neutron-server "${NEUTRON_PIDFILE}" neutron-server
      rm -f "${NEUTRON_PORTFILE}"
    fi
    # start_keystone_servers below starts the configured ones again.
    stop_keystone_servers
  elif [ -n "${pid}" ] && api_answers; then
    log "already running and answering"
    ensure_subnet_pools || die "making the shared subnet pools failed"
    ensure_public_network || die "making the external network failed"
    start_keystone_servers
    echo "${ENDPOINT}"
    return 0
  fi
  write_my_cnf
  if ! mysql_initialized; then
    init_mysql
    # A new datadir holds no neutron database yet.
    rm -f "${DB_CREATED_STAMP}" "${DB_STAMP}" "${R2_DB_STAMP}"
  fi
  start_mysql
  prepare_db
  start_neutron
  ensure_subnet_pools || { log "making the shared subnet pools failed"; fail_start; }
  ensure_public_network || { log "making the external network failed"; fail_start; }
  start_keystone_servers
  release_build_id >"${RUNNING_RELEASE_FILE}"
  log "neutron API is up (logs: ${LOG_DIR})"
  echo "${ENDPOINT}"
}

cmd_stop() {
  [ -d "${STATE_DIR}" ] || return 0
  take_lock "${STATE_DIR}/.lock"
  stop_keystone_servers
  stop_proc neutron-server "${NEUTRON_PIDFILE}" neutron-server
  stop_mysql
  rm -f "${NEUTRON_PORTFILE}" "${RUNNING_RELEASE_FILE}"
}

cmd_versions() {
  [ -f "${RELEASE_VERSIONS_FILE}" ] || die "OpenStack ${OPENSTACK_RELEASE}'s root is not built yet (${RELEASE_ROOT}): run '$0 start'"
  release_versions_line
}

cmd_status() {
  if api_answers; then
    local running
    running="$(cat "${RUNNING_RELEASE_FILE}" 2>/dev/null || true)"
    if [ "${running}" != "$(release_build_id)" ]; then
      log "neutron API answers on ${ENDPOINT}, but runs OpenStack ${running:-(unknown)}, not $(release_build_id)"
      return 1
    fi
    log "neutron API answers on ${ENDPOINT} (OpenStack ${running})"
    return 0
  fi
  log "neutron API does not answer on ${ENDPOINT}"
  return 1
}

cmd_db_url() {
  local name="${1:-}"
  case "${name}" in '' | *[!a-z0-9_]*) die "database name must be [a-z0-9_]+, got '${name}'" ;; esac
  mysql_client -e "CREATE DATABASE IF NOT EXISTS ${name}" ||
    die "cannot create database ${name}: is MariaDB running ($0 start)?"
  mysql_database_url "${name}"
}

cmd_serve() {
  local port=${1:-} log_file=${2:-}
  case "${port}" in '' | *[!0-9]*) die "serve needs a port number, got '${port}'" ;; esac
  case "${log_file}" in /*) ;; *) die "serve needs an absolute log file path, got '${log_file}'" ;; esac
  [ "${port}" != "${PORT}" ] || die "port ${port} is the shared neutron-server's"
  [ -f "${NEUTRON_CONF}" ] && [ -f "${ML2_CONF}" ] || die "no ${NEUTRON_CONF}: run '$0 start' first"
  # Beside the log: the caller's folder, which goes when the caller is done with it.
  local conf
  conf="$(dirname "${log_file}")/neutron-server-${port}.conf"
  printf '[DEFAULT]\nbind_port = %s\nlog_dir = %s\nlog_file = %s\n' \
    "${port}" "$(dirname "${log_file}")" "$(basename "${log_file}")" >"${conf}"
  neutron_api_argv "${port}" "${NEUTRON_CONF}" "${ML2_CONF}" "${conf}"
  exec "${NEUTRON_API[@]}"
}

cmd_reset() {
  cmd_stop
  exec 9>&-
  rm -rf "${STATE_DIR}"
  remove_mysql_sock
  log "removed ${STATE_DIR}"
}

dispatch '{install|start|stop|status|versions|reset|db-url NAME|start-keystone|stop-keystone|serve PORT LOG_FILE}' "$@"
