# Sourced first by hack/local-neutron.sh and hack/local-keystone.sh, which run Debian's
# OpenStack servers from a private state folder: SCRIPT_DIR (hack/), REPO_ROOT, and the
# helpers both use, for logging, packages, background servers and the state lock.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2034 # for the sourcing script
REPO_ROOT="$(cd "${SCRIPT_DIR}/.." && pwd)"

# shellcheck source=hack/lib/log.sh
source "${SCRIPT_DIR}/lib/log.sh"
# shellcheck source=hack/lib/apt.sh
source "${SCRIPT_DIR}/lib/apt.sh"
# shellcheck source=hack/lib/proc.sh
source "${SCRIPT_DIR}/lib/proc.sh"
# shellcheck source=hack/lib/lock.sh
source "${SCRIPT_DIR}/lib/lock.sh"
# shellcheck source=hack/lib/openstack-release.sh
source "${SCRIPT_DIR}/lib/openstack-release.sh"

# dispatch USAGE [COMMAND [ARG...]]: runs cmd_COMMAND ARG... (dashes in COMMAND read as
# underscores) when COMMAND is one of those USAGE lists ("{start|db-url NAME|...}"), so
# that the usage line is the one list of commands; anything else prints it and exits 2.
dispatch() {
  local usage=$1 cmd=${2:-} entry entries
  IFS='|' read -ra entries <<<"${usage//[\{\}]/}"
  for entry in "${entries[@]}"; do
    if [ -n "${cmd}" ] && [ "${entry%% *}" = "${cmd}" ]; then
      shift 2
      "cmd_${cmd//-/_}" "$@"
      return
    fi
  done
  echo "usage: $0 ${usage}" >&2
  exit 2
}

# replace_changed FILE...: puts each FILE.tmp in place of FILE when their contents
# differ (else drops FILE.tmp). Returns 0 when any FILE changed, 1 when none did: a
# running server keeps what it started with, so a change means a restart.
replace_changed() {
  local file changed=1
  for file in "$@"; do
    if cmp -s "${file}.tmp" "${file}" 2>/dev/null; then
      rm -f "${file}.tmp"
    else
      mv -f "${file}.tmp" "${file}"
      changed=0
    fi
  done
  return "${changed}"
}
