# Sourced by the hack/ scripts that log to stderr: log MESSAGE and die MESSAGE (exit 1).
#
# Lines carry the running script's name ("local-neutron: ..."), so that the output of
# scripts that run one another (hack/e2e.sh, hack/local-keystone.sh) can be told apart.
LOG_PREFIX="$(basename "$0" .sh)"

log() { echo "${LOG_PREFIX}: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
