#!/usr/bin/env bash
# Debian's Lua 5.1 interpreter, for running the Argo CD health check of deploy/argocd the
# way Argo CD does (its Lua, gopher-lua, is Lua 5.1).
#
# Usage: hack/lua.sh {install|path}
#
#   install  apt-get install Debian's lua5.1 package; a no-op when it is installed.
#   path     install if needed, then print the absolute path of the interpreter.
#
# Only the command's result goes to stdout (path prints the path, nothing else); apt-get's
# output goes to stderr.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# shellcheck source=hack/lib/log.sh
source "${SCRIPT_DIR}/lib/log.sh"
# shellcheck source=hack/lib/apt.sh
source "${SCRIPT_DIR}/lib/apt.sh"

LUA=/usr/bin/lua5.1

usage() {
  echo "usage: $0 {install|path}" >&2
  exit 2
}

cmd_install() {
  install_packages lua5.1 >&2
  [ -x "${LUA}" ] || die "${LUA} is missing although the lua5.1 package is installed"
}

cmd_path() {
  cmd_install
  echo "${LUA}"
}

[ $# -eq 1 ] || usage
case "$1" in
  install) cmd_install ;;
  path) cmd_path ;;
  *) usage ;;
esac
