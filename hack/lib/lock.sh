# Sourced by the hack/ scripts that keep servers and state on disk: take_lock, so that
# two runs (a test's stop and another's start) never work on one state folder at once.
# Needs die (hack/lib/log.sh, or the script's own).

# take_lock FILE [SECONDS [MESSAGE]]: holds an exclusive lock on FILE through fd 9 until
# the script exits or closes fd 9; dies with MESSAGE (default "could not lock FILE")
# when another holder keeps it longer than SECONDS (default 300). Servers started
# meanwhile must not inherit fd 9 (start them with 9>&-), or they would hold the lock
# for their lifetime.
take_lock() {
  local file=$1 seconds=${2:-300}
  mkdir -p "$(dirname "${file}")"
  exec 9>"${file}"
  flock -w "${seconds}" 9 || die "${3:-could not lock ${file}}"
}
