#!/usr/bin/env bash
# Debian's Prometheus tools, for the monitoring files of deploy/monitoring: check that the
# alerting rules load, and run their unit tests (test/monitoring/alerts_test.yaml).
#
# Usage: hack/prometheus.sh {install|check|path}
#
#   install  apt-get install Debian's prometheus package (/usr/bin/prometheus and
#            /usr/bin/promtool); a no-op when it is installed. Its service is not started.
#   check    install if needed, then run promtool check rules on
#            deploy/monitoring/network-controller.rules.yaml and promtool test rules on
#            test/monitoring/alerts_test.yaml. Exits non-zero on any failure.
#   path     install if needed, then print the absolute path of the prometheus binary.
#
# Only the command's result goes to stdout (path prints the path, nothing else); apt-get's
# output and the logs go to stderr.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "${SCRIPT_DIR}/.." && pwd)"

# shellcheck source=hack/lib/log.sh
source "${SCRIPT_DIR}/lib/log.sh"
# shellcheck source=hack/lib/apt.sh
source "${SCRIPT_DIR}/lib/apt.sh"

PROMETHEUS=/usr/bin/prometheus
PROMTOOL=/usr/bin/promtool
RULES=deploy/monitoring/network-controller.rules.yaml
RULE_TESTS=test/monitoring/alerts_test.yaml

usage() {
  echo "usage: $0 {install|check|path}" >&2
  exit 2
}

cmd_install() {
  # install_packages forbids services from starting (policy-rc.d) while apt-get runs, so
  # the package's prometheus.service stays stopped.
  install_packages prometheus >&2
  local bin
  for bin in "${PROMETHEUS}" "${PROMTOOL}"; do
    [ -x "${bin}" ] || die "${bin} is missing although the prometheus package is installed"
  done
}

cmd_check() {
  cmd_install
  cd "${REPO_ROOT}"
  log "$("${PROMTOOL}" --version 2>&1 | head -n 1)"
  "${PROMTOOL}" check rules "${RULES}"
  "${PROMTOOL}" test rules "${RULE_TESTS}"
}

cmd_path() {
  cmd_install
  echo "${PROMETHEUS}"
}

[ $# -eq 1 ] || usage
case "$1" in
  install) cmd_install ;;
  check) cmd_check ;;
  path) cmd_path ;;
  *) usage ;;
esac
