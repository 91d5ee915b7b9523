# Sourced by hack/local-keystone.sh: who is in the local Keystone and how clients log in.
# make_passwords keeps the random passwords, seed creates the projects, users and catalog
# (idempotent), seeded checks them with one request, and write_clouds_yaml writes the
# clouds.yaml for them.
#
# Needs AUTH_URL, NETWORK_URL, NODE_NETWORK_URL, REGION, REGION_TWO, REGION_TWO_NETWORK_URL, PYTHON, PASSWORDS,
# APPCRED_ID_FILE, CLOUDS_YAML, keystone_manage and hack/lib/log.sh; seed, seeded and
# write_clouds_yaml need the passwords sourced.

# make_passwords: random passwords, made once and kept, so that clouds.yaml written
# earlier stays valid across restarts. A state folder from before a password was added
# gets just the new one.
make_passwords() {
  local old_umask name
  old_umask="$(umask)"
  umask 077
  touch "${PASSWORDS}"
  cp "${PASSWORDS}" "${PASSWORDS}.tmp"
  for name in ADMIN_PASSWORD MEMBER_PASSWORD NEUTRON_PASSWORD TEAM_A_PASSWORD TEAM_B_PASSWORD TEAM_B_APPCRED_SECRET; do
    grep -q "^${name}=" "${PASSWORDS}.tmp" ||
      echo "${name}=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')" >>"${PASSWORDS}.tmp"
  done
  mv -f "${PASSWORDS}.tmp" "${PASSWORDS}"
  umask "${old_umask}"
}

# token_for IDENTITY_JSON [SCOPE_JSON]: asks Keystone for a token; prints the answer.
token_for() {
  local scope=""
  [ -z "${2:-}" ] || scope=", \"scope\": $2"
  curl -sf --max-time 10 -H 'Content-Type: application/json' \
    -d "{\"auth\": {\"identity\": $1${scope}}}" "${AUTH_URL}/auth/tokens"
}

password_identity() {
  printf '{"methods": ["password"], "password": {"user": {"name": "%s", "domain": {"id": "default"}, "password": "%s"}}}' "$1" "$2"
}

project_scope() {
  printf '{"project": {"name": "%s", "domain": {"id": "default"}}}' "$1"
}

# catalog_has_network_endpoints: the token (Keystone's answer) on stdin has a catalog with
# the network endpoints we want: NETWORK_URL in REGION and REGION_TWO_NETWORK_URL in
# REGION_TWO, each for the public, internal and admin interfaces, but REGION's internal
# one, NODE_NETWORK_URL.
catalog_has_network_endpoints() {
  NETWORK_URL="${NETWORK_URL}" NODE_NETWORK_URL="${NODE_NETWORK_URL}" REGION="${REGION}" REGION_TWO="${REGION_TWO}" \
    REGION_TWO_NETWORK_URL="${REGION_TWO_NETWORK_URL}" "${PYTHON}" -c '
import json, os, sys
env = os.environ
want = {(region, interface): url
        for region, url in ((env["REGION"], env["NETWORK_URL"]), (env["REGION_TWO"], env["REGION_TWO_NETWORK_URL"]))
        for interface in ("public", "internal", "admin")}
want[(env["REGION"], "internal")] = env["NODE_NETWORK_URL"]
have = {(e.get("region_id"), e.get("interface")): e.get("url")
        for s in json.load(sys.stdin)["token"].get("catalog", []) if s.get("type") == "network"
        for e in s.get("endpoints", [])}
sys.exit(0 if all(have.get(k) == url for k, url in want.items()) else 1)
'
}

# seeded: the member user gets a token whose catalog has the network endpoints we want
# (both regions), and the tenants log in (team-b with its application credential).
# Three requests, so a restart skips the seeding.
seeded() {
  local body appcred_id
  body="$(token_for "$(password_identity k8s-controller "${MEMBER_PASSWORD}")" "$(project_scope k8s)")" || return 1
  catalog_has_network_endpoints <<<"${body}" || return 1
  token_for "$(password_identity team-a-user "${TEAM_A_PASSWORD}")" "$(project_scope team-a)" >/dev/null || return 1
  appcred_id="$(cat "${APPCRED_ID_FILE}" 2>/dev/null)" || return 1
  token_for "{\"methods\": [\"application_credential\"], \"application_credential\": {\"id\": \"${appcred_id}\", \"secret\": \"${TEAM_B_APPCRED_SECRET}\"}}" >/dev/null
}

# seed: admin, the member project and user, Neutron's service user, the catalog (network
# endpoints in regions REGION and REGION_TWO), and two tenants: team-a (user team-a-user, password) and team-b (user team-b-user, who
# logs in with an application credential it made itself). Every step looks before it
# creates, so running it again changes nothing.
seed() {
  log "keystone-manage bootstrap"
  keystone_manage bootstrap bootstrap --bootstrap-password "${ADMIN_PASSWORD}" \
    --bootstrap-admin-url "${AUTH_URL}/" --bootstrap-internal-url "${AUTH_URL}/" \
    --bootstrap-public-url "${AUTH_URL}/" --bootstrap-region-id "${REGION}"
  log "creating projects k8s, team-a and team-b (member users), service user neutron, network endpoints in ${REGION} and ${REGION_TWO}"
  AUTH_URL="${AUTH_URL}" NETWORK_URL="${NETWORK_URL}" NODE_NETWORK_URL="${NODE_NETWORK_URL}" REGION="${REGION}" \
    REGION_TWO="${REGION_TWO}" REGION_TWO_NETWORK_URL="${REGION_TWO_NETWORK_URL}" \
    ADMIN_PASSWORD="${ADMIN_PASSWORD}" MEMBER_PASSWORD="${MEMBER_PASSWORD}" \
    NEUTRON_PASSWORD="${NEUTRON_PASSWORD}" TEAM_A_PASSWORD="${TEAM_A_PASSWORD}" \
    TEAM_B_PASSWORD="${TEAM_B_PASSWORD}" TEAM_B_APPCRED_SECRET="${TEAM_B_APPCRED_SECRET}" \
    APPCRED_ID_FILE="${APPCRED_ID_FILE}" "${PYTHON}" - <<'PY' || die "seeding keystone failed"
import os
from keystoneauth1 import session
from keystoneauth1.identity import v3
from keystoneclient.v3 import client

env = os.environ

class Password(v3.Password):
    # keystoneauth renews a token with less than this left. Its default, two minutes, is
    # more than the tests' short tokens live, which would mean a new token per request;
    # keeping one token for the whole seeding instead fails it when a loaded machine
    # makes the seeding outlast the token.
    MIN_TOKEN_LIFE_SECONDS = 10

def session_as(username, password, project):
    # A timeout on every request: a Keystone that stops answering fails the start
    # instead of hanging it (with the state folder's lock held).
    return session.Session(auth=Password(auth_url=env["AUTH_URL"], username=username, password=password,
                                         project_name=project, user_domain_id="default", project_domain_id="default"),
                           timeout=30)

ks = client.Client(session=session_as("admin", env["ADMIN_PASSWORD"], "admin"), endpoint_override=env["AUTH_URL"])

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
for name, password in (("team-a", env["TEAM_A_PASSWORD"]), ("team-b", env["TEAM_B_PASSWORD"])):
    tenant = project(name, "A tenant's project")
    ks.roles.grant(role("member"), user=user(name + "-user", password, tenant), project=tenant)

# team-b's application credential, made by team-b-user itself as users do. Its secret
# is the kept one; one left from an earlier state folder (another secret) is replaced.
tb = client.Client(session=session_as("team-b-user", env["TEAM_B_PASSWORD"], "team-b"), endpoint_override=env["AUTH_URL"])
tb_user = ks.users.list(name="team-b-user", domain="default")[0].id
for old in tb.application_credentials.list(user=tb_user):
    if old.name == "network-controller":
        tb.application_credentials.delete(old, user=tb_user)
cred = tb.application_credentials.create("network-controller", user=tb_user, secret=env["TEAM_B_APPCRED_SECRET"],
                                         description="team-b's credentials for the network-controller")
with open(env["APPCRED_ID_FILE"], "w") as f:
    f.write(cred.id)

service = project("service", "OpenStack services")
neutron = user("neutron", env["NEUTRON_PASSWORD"], service)
ks.roles.grant(role("admin"), user=neutron, project=service)

# REGION exists (bootstrap made it, with the identity endpoints); the second region is
# only in the catalog for its own neutron-server.
if env["REGION_TWO"] not in {r.id for r in ks.regions.list()}:
    ks.regions.create(id=env["REGION_TWO"], description="Second region: a neutron-server with its own database")

svc = [s for s in ks.services.list(type="network")]
svc = svc[0] if svc else ks.services.create("neutron", "network", description="OpenStack Networking")
have = {(e.region_id, e.interface): e for e in ks.endpoints.list(service=svc)}
for region, url in ((env["REGION"], env["NETWORK_URL"]), (env["REGION_TWO"], env["REGION_TWO_NETWORK_URL"])):
    for interface in ("public", "internal", "admin"):
        want = env["NODE_NETWORK_URL"] if (region, interface) == (env["REGION"], "internal") else url
        e = have.get((region, interface))
        if e is None:
            ks.endpoints.create(svc, want, interface=interface, region=region)
        elif e.url != want:
            ks.endpoints.update(e, url=want)
PY
}

# controller_cloud NAME AUTH_URL INTERFACE: the clouds.yaml entry of the controller's
# member-role user in project k8s.
controller_cloud() {
  cat <<EOF
  $1:
    auth:
      auth_url: $2
      username: k8s-controller
      password: ${MEMBER_PASSWORD}
      project_name: k8s
      user_domain_name: Default
      project_domain_name: Default
    region_name: ${REGION}
    interface: $3
    identity_api_version: 3
EOF
}

write_clouds_yaml() {
  local old_umask
  old_umask="$(umask)"
  umask 077
  cat >"${CLOUDS_YAML}.tmp" <<EOF
# Generated by hack/local-keystone.sh for the local Keystone on ${AUTH_URL}.
# Every cloud is in region ${REGION}. Region ${REGION_TWO} (a Neutron with other networks) is
# in the catalog too: copy an entry with region_name: ${REGION_TWO} (the openstack CLI refuses
# --os-region-name ${REGION_TWO} for these clouds: region_name names their only region).
clouds:
  # The controller's identity: only the member role, in project k8s.
$(controller_cloud k8s "${AUTH_URL}" public)
  # Tenants: team-a logs in with a password, team-b with an application credential.
  team-a:
    auth:
      auth_url: ${AUTH_URL}
      username: team-a-user
      password: ${TEAM_A_PASSWORD}
      project_name: team-a
      user_domain_name: Default
      project_domain_name: Default
    region_name: ${REGION}
    interface: public
    identity_api_version: 3
  team-b:
    auth_type: v3applicationcredential
    auth:
      auth_url: ${AUTH_URL}
      application_credential_id: $(cat "${APPCRED_ID_FILE}")
      application_credential_secret: ${TEAM_B_APPCRED_SECRET}
    region_name: ${REGION}
    interface: public
    identity_api_version: 3
  # team-b's user itself, with its password: for making and deleting its own
  # application credentials (the controller is never given it).
  team-b-user:
    auth:
      auth_url: ${AUTH_URL}
      username: team-b-user
      password: ${TEAM_B_PASSWORD}
      project_name: team-b
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
  # The controller's identity as Pods on the local node reach Keystone and Neutron
  # (hack/local-node.sh forwards both ports from its bridge), under the cloud name the
  # Deployment of deploy/ uses (OS_CLOUD=openstack): the clouds.yaml of its Secret.
  cat >"${NODE_CLOUDS_YAML}.tmp" <<EOF
# Generated by hack/local-keystone.sh: the k8s cloud of clouds.yaml, for Pods on the local node.
clouds:
$(controller_cloud openstack "${NODE_AUTH_URL}" internal)
EOF
  mv -f "${NODE_CLOUDS_YAML}.tmp" "${NODE_CLOUDS_YAML}"
  umask "${old_umask}"
}
