# Sourced first by hack/e2e.sh and hack/bench.sh, which run the controller against the
# local servers: works from the repository root (ROOT), and brings log, GO and
# start_if_needed / stop_started_servers.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${ROOT}" || exit 1

# shellcheck source=hack/lib/log.sh
source hack/lib/log.sh
# shellcheck source=hack/lib/go.sh
source hack/lib/go.sh
# shellcheck source=hack/lib/start-if-needed.sh
source hack/lib/start-if-needed.sh
