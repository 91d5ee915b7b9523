#!/usr/bin/env bash
# `make test-node`: the end-to-end test of the controller as Pods on a real kubelet
# (test/node), on a control plane of its own with hack/local-node.sh's node, against the
# local Keystone and Neutron. Run as root.
#
# Usage: hack/node-e2e.sh [extra go test args]
#
# The control plane is a second one (state _output/local/node-kube, ports 26443, 26257,
# 22379 and 22380), so that no object another test left behind lands on the node; it and
# the node are stopped on exit, as are Keystone and Neutron when this script started them.
# Prints how long the node's start and the test took.
set -euo pipefail

# shellcheck source=hack/lib/uses-local-servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/uses-local-servers.sh"

export LOCAL_KUBE_STATE="${ROOT}/_output/local/node-kube"
export LOCAL_KUBE_PORT=26443 LOCAL_KCM_PORT=26257 LOCAL_ETCD_PORT=22379 LOCAL_ETCD_PEER_PORT=22380
export KEYSTONE_TOKEN_EXPIRATION="${KEYSTONE_TOKEN_EXPIRATION:-45}"

node_started=0
own_kube_started=0
cleanup() {
  local rc=$?
  if [[ "${node_started}" == 1 ]]; then hack/local-node.sh stop || true; fi
  if [[ "${own_kube_started}" == 1 ]]; then hack/local-kube.sh stop || true; fi
  stop_started_servers
  exit "${rc}"
}
trap cleanup EXIT

[[ "$(id -u)" == 0 ]] || die "the node needs root"
began=${SECONDS}
hack/prometheus.sh install >&2
hack/helm.sh build
started_neutron="$(start_if_needed "the local Neutron" hack/local-neutron.sh)"
hack/local-keystone.sh status >/dev/null 2>&1 || started_keystone=1
hack/local-keystone.sh start >/dev/null
own_kube_started=1
hack/local-kube.sh start >&2
node_started=1
hack/local-node.sh start
log "the node's cluster is up in $((SECONDS - began)) s"
# What the upgrade test reads of the cloud, as test/e2e's tests do (hack/e2e.sh).
eval "$(hack/local-keystone.sh env | sed 's/^/export /')"
export E2E_LOCAL_KEYSTONE=1 NEUTRON_ENDPOINT="http://127.0.0.1:${NEUTRON_PORT:-19696}/"

mkdir -p _output/e2e
set +e
test_began=${SECONDS}
KUBECONFIG="${LOCAL_KUBE_STATE}/kubeconfig" E2E_NODE=1 "${GO}" test -tags e2e -count=1 -timeout "${E2E_TIMEOUT:-40m}" -v ./test/node/... "$@" 2>&1 |
  tee _output/e2e/node-test.log
rc=${PIPESTATUS[0]}
set -e
log "go test exited with ${rc} after $((SECONDS - test_began)) s; $((SECONDS - began)) s in all (output in _output/e2e/node-test.log)"
exit "${rc}"
