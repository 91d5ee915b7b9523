# Sourced by hack/lib/local-service.sh: which OpenStack release the local cloud runs, and
# how its servers run. OPENSTACK_RELEASE names it:
#
#   2022.2  Zed: Debian 12 "bookworm" (neutron-server 21, Keystone 22)
#   2025.1  Epoxy: Debian 13 "trixie" (neutron-server 26, Keystone 27); the default
#   newest  Debian testing "forky" (neutron-server 28, Keystone 30 when written): testing
#           moves, so its versions are printed at every start and kept beside the root
#
# Each release's servers (neutron-server, Keystone under uwsgi, MariaDB) are Debian's
# packages of that suite, installed by mmdebstrap into a root file system of their own,
# RELEASE_ROOT, outside the clone (OPENSTACK_RELEASE_CACHE, default
# /var/cache/network-controller/openstack), so that a new clone, `make test` after
# `make run`, and CI on the same machine find them built. Every command of the release
# runs in it through IN_RELEASE (hack/lib/release-chroot.sh): chroot, the machine's
# network, the state folders mounted at their own paths. Nothing of the release is
# installed on the host; the clients (openstack, curl, mariadb) are the host's.
# The root is built again when it is missing or incomplete, when RELEASE_RECIPE or the
# package list changed, and for `newest` when it is older than OPENSTACK_NEWEST_MAX_DAYS
# (default 7) and no server of the local cloud runs from it.
#
# Needs SCRIPT_DIR, REPO_ROOT, log and die (hack/lib/log.sh) and install_packages
# (hack/lib/apt.sh).

OPENSTACK_RELEASE="${OPENSTACK_RELEASE:-2025.1}"
case "${OPENSTACK_RELEASE}" in
  2022.2) RELEASE_SUITE=bookworm RELEASE_UPDATES=1 ;;
  2025.1) RELEASE_SUITE=trixie RELEASE_UPDATES=1 ;;
  newest) RELEASE_SUITE=forky RELEASE_UPDATES=0 ;;
  *) die "OPENSTACK_RELEASE must be 2022.2, 2025.1 or newest, got '${OPENSTACK_RELEASE}'" ;;
esac
# The fewest API workers the release's neutron-server takes: Zed serves the API in its
# own process with 0; later releases refuse 0 and serve it in one child process.
RELEASE_API_WORKERS_MIN=1
[[ "${OPENSTACK_RELEASE}" != 2022.2 ]] || RELEASE_API_WORKERS_MIN=0
RELEASE_CACHE="${OPENSTACK_RELEASE_CACHE:-/var/cache/network-controller/openstack}"
RELEASE_ROOT="${RELEASE_CACHE}/${RELEASE_SUITE}"
# What the root holds: the servers of hack/local-neutron.sh and hack/local-keystone.sh
# (python3-keystonemiddleware: the audit middleware of the Keystone-authenticated
# neutron-servers).
RELEASE_PACKAGES=(neutron-server python3-keystonemiddleware python3-pymysql mariadb-server mariadb-client
  keystone uwsgi-core uwsgi-plugin-python3)
# Bump when the way the root is built changes, to build every root again.
RELEASE_RECIPE=1
RELEASE_STAMP_FILE="${RELEASE_ROOT}/.network-controller-root"
RELEASE_VERSIONS_FILE="${RELEASE_ROOT}/.network-controller-versions"
NEWEST_MAX_DAYS="${OPENSTACK_NEWEST_MAX_DAYS:-7}"
case "${NEWEST_MAX_DAYS}" in '' | *[!0-9]*) die "OPENSTACK_NEWEST_MAX_DAYS must be a number, got '${NEWEST_MAX_DAYS}'" ;; esac

# release_recipe: what the root is built from; a root whose stamp says otherwise is stale.
release_recipe() {
  echo "recipe=${RELEASE_RECIPE} suite=${RELEASE_SUITE} updates=${RELEASE_UPDATES} packages=${RELEASE_PACKAGES[*]}"
}

# release_mirror: the Debian mirror the host's apt uses (its debian.sources or
# sources.list), so that the root comes from the same registry; OPENSTACK_RELEASE_MIRROR
# overrides it.
release_mirror() {
  if [[ -n "${OPENSTACK_RELEASE_MIRROR:-}" ]]; then
    echo "${OPENSTACK_RELEASE_MIRROR}"
    return
  fi
  local uri
  uri="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }')"
  [[ -n "${uri}" ]] || uri="$(cat /etc/apt/sources.list 2>/dev/null |
    awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:.*\/debian\/?$/) { print $i; exit } }')"
  echo "${uri:-http://deb.debian.org/debian}"
}

# release_root_fresh: the root is complete and built by today's recipe (and, for newest,
# young enough or in use).
release_root_fresh() {
  [[ -f "${RELEASE_STAMP_FILE}" && -f "${RELEASE_VERSIONS_FILE}" ]] || return 1
  [[ "$(sed -n 1p "${RELEASE_STAMP_FILE}")" == "$(release_recipe)" ]] || return 1
  [[ "${OPENSTACK_RELEASE}" == newest ]] || return 0
  local built age_days
  built="$(sed -n 2p "${RELEASE_STAMP_FILE}")"
  age_days=$((($(date +%s) - ${built:-0}) / 86400))
  ((age_days < NEWEST_MAX_DAYS)) && return 0
  if release_root_in_use; then
    log "the root of OpenStack newest (${RELEASE_ROOT}) is ${age_days} days old, but servers run from it: kept until they stop"
    return 0
  fi
  log "the root of OpenStack newest (${RELEASE_ROOT}) is ${age_days} days old (OPENSTACK_NEWEST_MAX_DAYS=${NEWEST_MAX_DAYS}): building it again"
  return 1
}

# release_root_in_use: some process has its root in RELEASE_ROOT.
release_root_in_use() {
  local link
  for link in /proc/[0-9]*/root; do
    [[ "$(readlink "${link}" 2>/dev/null)" == "${RELEASE_ROOT}" ]] && return 0
  done
  return 1
}

# release_packages_versions: "package version" lines of the root's servers.
release_packages_versions() {
  dpkg-query --admindir="$1/var/lib/dpkg" -W -f='${Package} ${Version}\n' \
    neutron-server keystone mariadb-server uwsgi-core python3-keystonemiddleware python3
}

# ensure_release_root: builds RELEASE_ROOT unless release_root_fresh. Builds into a new
# folder and swaps it in when complete, so that a failed or cut build leaves no half root
# behind; the log of the build is RELEASE_ROOT.log. Holds a lock on the cache so that two
# starts build once.
ensure_release_root() {
  mkdir -p "${RELEASE_CACHE}"
  exec 8>"${RELEASE_CACHE}/.${RELEASE_SUITE}.lock"
  flock 8
  if release_root_fresh; then
    exec 8>&-
    return 0
  fi
  install_packages mmdebstrap
  local mirror new="${RELEASE_ROOT}.new" build_log="${RELEASE_ROOT}.log" t0=${SECONDS}
  mirror="$(release_mirror)"
  local sources=("deb ${mirror} ${RELEASE_SUITE} main")
  if [[ "${RELEASE_UPDATES}" == 1 ]]; then
    sources+=("deb ${mirror} ${RELEASE_SUITE}-updates main" "deb ${mirror}-security ${RELEASE_SUITE}-security main")
  fi
  log "building the root file system of OpenStack ${OPENSTACK_RELEASE} (Debian ${RELEASE_SUITE} from ${mirror}) in ${RELEASE_ROOT}: about 3 minutes (log: ${build_log})"
  rm -rf "${new}"
  local packages
  packages="$(IFS=,; echo "${RELEASE_PACKAGES[*]}")"
  # Check-Valid-Until: the registry may serve a suite (testing) whose Release file is
  # past its date. policy-rc.d: mmdebstrap keeps the packages' services from starting.
  if ! mmdebstrap --mode=root --variant=minbase --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="${packages}" "${RELEASE_SUITE}" "${new}" "${sources[@]}" >"${build_log}" 2>&1; then
    rm -rf "${new}"
    local step
    step="$(grep -E '^I: ' "${build_log}" | tail -n 1)"
    grep -E '^(E|W): ' "${build_log}" | tail -n 15 >&2 || tail -n 15 "${build_log}" >&2
    exec 8>&-
    die "building the root file system of OpenStack ${OPENSTACK_RELEASE} failed at the step '${step#I: }' (mmdebstrap ${RELEASE_SUITE} from ${mirror}; the registry's errors above, the whole log in ${build_log})"
  fi
  release_packages_versions "${new}" >"${new}/.network-controller-versions" ||
    { rm -rf "${new}"; exec 8>&-; die "the new root of OpenStack ${OPENSTACK_RELEASE} lacks its servers (${build_log})"; }
  printf '%s\n%s\n' "$(release_recipe)" "$(date +%s)" >"${new}/.network-controller-root"
  # Servers still running from an old root keep it open; the swap does not disturb them,
  # and the next start runs them from the new one (the settings name the root's build).
  rm -rf "${RELEASE_ROOT}.old"
  [[ ! -d "${RELEASE_ROOT}" ]] || mv "${RELEASE_ROOT}" "${RELEASE_ROOT}.old"
  mv "${new}" "${RELEASE_ROOT}"
  rm -rf "${RELEASE_ROOT}.old"
  exec 8>&-
  log "built the root of OpenStack ${OPENSTACK_RELEASE} in $((SECONDS - t0)) s: $(release_versions_line)"
}

# release_versions_line: the release and its servers' versions, on one line.
release_versions_line() {
  echo "OpenStack ${OPENSTACK_RELEASE} (Debian ${RELEASE_SUITE}): $(tr '\n' ',' <"${RELEASE_VERSIONS_FILE}" | sed 's/,$//; s/,/, /g')"
}

# release_build_id: which build of the root runs: a server started from another build is
# started again (the settings files carry it).
release_build_id() {
  echo "${OPENSTACK_RELEASE} $(sed -n 2p "${RELEASE_STAMP_FILE}" 2>/dev/null)"
}

# IN_RELEASE: the prefix that runs a command of the release (see the header); the state
# folders, the repository and /tmp (the tests' folders) are mounted at their own paths.
# in_release_binds DIR...: sets IN_RELEASE with these folders besides.
in_release_binds() {
  IN_RELEASE=(unshare --mount -- "${SCRIPT_DIR}/lib/release-chroot.sh" "${RELEASE_ROOT}"
    /tmp "${REPO_ROOT}" "$@" --)
}
in_release_binds
