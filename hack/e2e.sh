#!/usr/bin/env bash
# Runs the end-to-end tests (test/e2e) against a real kube-apiserver and a real
# neutron-server on loopback.
#
# Usage: hack/e2e.sh [extra go test args, e.g. -run TestWalkingSkeleton]
#
# Starts hack/local-kube.sh, hack/local-neutron.sh and hack/local-keystone.sh (Keystone
# and the Keystone-authenticated neutron-servers of regions RegionOne and RegionTwo, with
# short-lived tokens) when they are not already running, and stops (on exit) only the ones
# it started. Exports KUBECONFIG, NEUTRON_ENDPOINT and E2E_LOCAL_NEUTRON=1 and E2E_LOCAL_KUBE=1
# (the outage and chaos tests run a neutron-server and a kube-apiserver of their own through
# the `serve` commands of hack/local-neutron.sh and hack/local-kube.sh), and
# E2E_LOCAL_KEYSTONE=1 with what `hack/local-keystone.sh env` prints (KEYSTONE_AUTH_URL,
# KEYSTONE_CLOUDS_YAML, ..., NEUTRON_REGION_TWO_ENDPOINT). The exit code is go test's; its
# output is kept in E2E_LOG, and the failing tests' own last lines are printed again at the
# end. The OpenStack release and the Kubernetes version the tests ran on are printed before
# them and kept in E2E_LOG.servers.
#
# The container test (TestContainerImage) needs the image built from the Dockerfile: it is
# built here in the background (hack/image.sh, tracked files only, local base images) while
# the other tests run, after a first build of the controller on the host with the flags of
# the image's builder (CGO_ENABLED=0, -trimpath), whose Go build cache the image build then
# reuses. The image and the base images are removed on exit.
#
# Debian's prometheus package (TestMonitoringOnPrometheus) and lua5.1 (the Argo CD health
# check, TestGitOpsHealth) are installed by hack/prometheus.sh and hack/lua.sh when missing;
# helm (the chart's tests) is built by hack/helm.sh when hack/tools/helm changed.
#
# Environment:
#   E2E_TIMEOUT   go test -timeout (default 40m)
#   E2E_PARALLEL  go test -parallel (default 4): tests that share the cluster mostly wait on
#                 the servers, so more of them run at once than there are cores
#   NEUTRON_PORT  port of the local Neutron (default 19696, as hack/local-neutron.sh)
#   KEYSTONE_PORT, NEUTRON_KEYSTONE_PORT, NEUTRON_REGION_TWO_PORT  as hack/local-keystone.sh
#                 (15000, 19697, 19698)
#   KEYSTONE_TOKEN_EXPIRATION  token lifetime in seconds for the tests (default 45)
#   OPENSTACK_RELEASE  the local cloud's release: 2022.2, 2025.1 (default) or newest; a
#                 running cloud of another release is restarted in this one
#   LOCAL_KUBE_VERSION  newest (default) or oldest: the Kubernetes of the local control
#                 plane (hack/local-kube.sh; the oldest is a cluster of its own)
#   E2E_LOG       where go test's output goes (default _output/e2e/go-test.log)
set -euo pipefail

# shellcheck source=hack/lib/uses-local-servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/uses-local-servers.sh"

image_pid=
image_engine=

cleanup() {
  local rc=$?
  if [[ -n "${image_pid}" ]]; then
    if kill -0 "${image_pid}" 2>/dev/null; then
      log "stopping the image build"
      kill -- "-${image_pid}" 2>/dev/null || true
      wait "${image_pid}" 2>/dev/null || true
    fi
    log "removing ${E2E_IMAGE} and the base images"
    "${image_engine}" rmi "${E2E_IMAGE}" >/dev/null 2>&1 || true
    hack/base-images.sh "${image_engine}" remove || true
    rm -rf "${image_dir}"
  fi
  stop_started_servers
  exit "${rc}"
}
trap cleanup EXIT

# The tests and the controller binary they build use the Dockerfile's build flags, so that
# the image's builder finds the controller's packages in Go's build cache. Only for these
# go commands: the servers' own builds (hack/local-kube.sh) keep theirs.
go_env=(env CGO_ENABLED=0 GOFLAGS="${GOFLAGS:+${GOFLAGS} }-trimpath")

# wants_image: the go test arguments do not exclude TestContainerImage by their -run.
wants_image() {
  local run=
  while (($#)); do
    case "$1" in
      -run | -test.run) run="${2:-}"; shift ;;
      -run=* | -test.run=*) run="${1#*=}" ;;
    esac
    shift
  done
  [[ -z "${run}" ]] || grep -Eq -- "${run%%/*}" <<<TestContainerImage
}

if wants_image "$@"; then
  log "building the controller on the host (its Go build cache serves the image build below)"
  start=${SECONDS}
  "${go_env[@]}" "${GO}" build -tags e2ecrash -o /dev/null .
  log "built the controller in $((SECONDS - start)) s"
  image_engine="$(hack/image.sh engine)"
  case "${image_engine}" in
    docker | podman | buildah) ;;
    *) log "ERROR: hack/image.sh engine printed ${image_engine@Q}, not an engine name"; image_engine=; exit 1 ;;
  esac
  image_dir="$(mktemp -d "${TMPDIR:-/tmp}/e2e-image.XXXXXX")"
  export E2E_IMAGE="localhost/network-controller:e2e-$$-${RANDOM}"
  export E2E_IMAGE_ENGINE="${image_engine}"
  export E2E_IMAGE_BUILD_DONE="${image_dir}/done"
  export E2E_IMAGE_BUILD_LOG="${image_dir}/build.log"
  log "building ${E2E_IMAGE} with ${image_engine} in the background (log: ${E2E_IMAGE_BUILD_LOG})"
  # setsid: its own process group, so that cleanup can stop the whole build.
  setsid bash -c 'IMAGE="${E2E_IMAGE}" IMAGE_ENGINE="${E2E_IMAGE_ENGINE}" IMAGE_CONTEXT=tracked BASE_IMAGES=local \
    hack/image.sh >"${E2E_IMAGE_BUILD_LOG}" 2>&1; echo $? >"${E2E_IMAGE_BUILD_DONE}.tmp"
    mv "${E2E_IMAGE_BUILD_DONE}.tmp" "${E2E_IMAGE_BUILD_DONE}"' &
  image_pid=$!
fi

# Debian's prometheus for TestMonitoringOnPrometheus, and its Lua 5.1 for the Argo CD
# health check (TestGitOpsHealth); apt's output goes to stderr.
hack/prometheus.sh install >&2
hack/lua.sh install >&2
# helm for the chart's tests (test/e2e/helm_*_test.go), built from hack/tools/helm.
hack/helm.sh build

started_kube="$(start_if_needed "the local kube-apiserver" hack/local-kube.sh)"
started_neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"
# Keystone's start also checks (and repairs) the seeding and the Keystone-authenticated
# Neutron, and restarts a running Keystone whose token lifetime differs.
export KEYSTONE_TOKEN_EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-45}"
if ! hack/local-keystone.sh status >/dev/null 2>&1; then
  started_keystone=1
fi
log "starting the local Keystone (token lifetime ${KEYSTONE_TOKEN_EXPIRATION} s)"
hack/local-keystone.sh start >/dev/null
eval "$(hack/local-keystone.sh env | sed 's/^/export /')"
export E2E_LOCAL_KEYSTONE=1

KUBECONFIG="$(hack/local-kube.sh kubeconfig)"
export KUBECONFIG
export NEUTRON_ENDPOINT="http://127.0.0.1:${NEUTRON_PORT:-19696}/"
export E2E_LOCAL_NEUTRON=1
export E2E_LOCAL_KUBE=1

log "KUBECONFIG=${KUBECONFIG} NEUTRON_ENDPOINT=${NEUTRON_ENDPOINT} KEYSTONE_AUTH_URL=${KEYSTONE_AUTH_URL}"
e2e_log="${E2E_LOG:-_output/e2e/go-test.log}"
mkdir -p "$(dirname "${e2e_log}")"
kube_version="$(kubectl get --raw /version | sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p')"
{
  log "OpenStack: $(hack/local-neutron.sh versions)"
  log "Kubernetes: ${kube_version:-unknown}"
} 2>&1 | tee "${e2e_log}.servers" >&2
set +e
# nice: on 2 cores the tests, their controllers and kubectl keep the machine busy; the
# shared servers (each neutron-server is one process) must still answer within the
# clients' timeouts, so they come first.
nice -n 5 "${go_env[@]}" "${GO}" test -tags e2e -count=1 -timeout "${E2E_TIMEOUT:-40m}" -parallel "${E2E_PARALLEL:-4}" -v ./test/e2e/... "$@" 2>&1 |
  tee "${e2e_log}"
rc=${PIPESTATUS[0]}
set -e
log "go test exited with ${rc} (output in ${e2e_log})"
if [[ "${rc}" != 0 ]]; then
  awk -f hack/lib/e2e-failures.awk "${e2e_log}" >&2
fi
exit "${rc}"
