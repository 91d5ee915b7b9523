# Sourced by the hack/ scripts that run Debian's packaged servers: pkg_installed and
# install_packages. Needs log and die (hack/lib/log.sh).

# pkg_installed PACKAGE: PACKAGE is fully installed (not only known, or half-configured).
pkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

# missing_packages PACKAGE...: prints those not installed, one a line.
missing_packages() {
  local p
  for p in "$@"; do
    pkg_installed "$p" || echo "$p"
  done
}

APT_POLICY_RC_D=/usr/sbin/policy-rc.d
APT_CREATED_POLICY_RC_D=0
APT_SUDO=()

remove_policy_rc_d() {
  if [ "${APT_CREATED_POLICY_RC_D}" = 1 ]; then
    "${APT_SUDO[@]}" rm -f "${APT_POLICY_RC_D}"
    APT_CREATED_POLICY_RC_D=0
  fi
}

# install_packages PACKAGE...: apt-get installs those not installed yet, and needs
# neither root nor the network when all are. Sets (and then clears) an EXIT trap.
install_packages() {
  local missing
  missing="$(missing_packages "$@")"
  [ -n "${missing}" ] || return 0
  # shellcheck disable=SC2086 # one package name a word
  set -- ${missing}
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to install: $*"
    APT_SUDO=(sudo)
  fi
  log "installing Debian packages: $*"
  # The packages' maintainer scripts would start their own services (a Keystone on port
  # 5000, the system-wide MariaDB): forbid that for the time of the install, and only
  # when no policy-rc.d exists yet (someone else's stays as it is).
  if [ ! -e "${APT_POLICY_RC_D}" ]; then
    trap remove_policy_rc_d EXIT
    APT_CREATED_POLICY_RC_D=1
    printf '#!/bin/sh\n# created by hack/%s for the install only\nexit 101\n' "$(basename "$0")" |
      "${APT_SUDO[@]}" tee "${APT_POLICY_RC_D}" >/dev/null
    "${APT_SUDO[@]}" chmod 0755 "${APT_POLICY_RC_D}"
  fi
  local apt=("${APT_SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
    -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef
    -o Dpkg::Options::=--force-confold)
  local rc=0 t0=${SECONDS}
  # Try without refreshing the package lists first (fast when they are there); on a
  # brand-new machine the lists are empty, so update and retry.
  "${apt[@]}" install -y --no-install-recommends "$@" ||
    { log "apt-get install failed; running apt-get update and retrying" &&
      "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "$@"; } ||
    rc=$?
  remove_policy_rc_d
  trap - EXIT
  [ "${rc}" = 0 ] || die "apt-get install failed (exit ${rc})"
  missing="$(missing_packages "$@")"
  [ -z "${missing}" ] || die "packages still missing after install: ${missing}"
  log "installed in $((SECONDS - t0)) s"
}
