#!/usr/bin/env bash
# `make run`: runs the controller against the configured cluster and OpenStack, starting a
# local kube-apiserver, Keystone and neutron-server (loopback only) for whichever is not
# configured.
#
#   Kubernetes: the cluster of $KUBECONFIG when it is set, else the local one
#               (hack/local-kube.sh); ~/.kube/config is never read unless KUBECONFIG names
#               it, so that make run touches no cluster the user did not name.
#               LOCAL_CLUSTER=1 takes the local one even with KUBECONFIG set.
#   OpenStack:  -os-cloud $OS_CLOUD with your clouds.yaml when OS_CLOUD is set;
#               -neutron-endpoint $NEUTRON_ENDPOINT (no authentication) when that is set;
#               else the local Keystone and Neutron (hack/local-keystone.sh): the controller
#               runs as the member-role user of project k8s through
#               _output/local/keystone/clouds.yaml, cloud "k8s" -- the production path.
#               NOAUTH=1 uses the local Neutron without Keystone instead.
#               OPENSTACK_RELEASE picks the local cloud's release: 2022.2, 2025.1 (the
#               default) or newest (hack/lib/openstack-release.sh).
#
# What this script started is stopped again when the controller exits, unless
# KEEP_RUNNING=1. Extra arguments after the binary go to the controller.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${REPO_ROOT}"
BIN="${1:?usage: hack/run-local.sh BINARY [controller flags...]}"
shift

started=()
cleanup() {
    if [[ "${KEEP_RUNNING:-0}" == 1 ]]; then
        return
    fi
    local i
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do
        "hack/local-${started[i]}.sh" stop || true
        if [[ "${started[i]}" == keystone ]]; then
            hack/local-neutron.sh stop-keystone || true
        fi
    done
}
trap cleanup EXIT

start_local() { # kube|neutron|keystone
    if ! "hack/local-$1.sh" status >/dev/null 2>&1; then
        "hack/local-$1.sh" start
        started+=("$1")
    fi
}

# start_keystone: the local Keystone brings the local Neutron (and its database) along.
start_keystone() {
    if ! hack/local-neutron.sh status >/dev/null 2>&1; then
        hack/local-neutron.sh start >/dev/null
        started+=(neutron)
    fi
    if ! hack/local-keystone.sh status >/dev/null 2>&1; then
        started+=(keystone)
    fi
    # Also when Keystone runs: start makes sure the seeding and the Keystone-authenticated
    # Neutron are there, and does nothing more when they are.
    hack/local-keystone.sh start >/dev/null
}

kubeconfig="${KUBECONFIG:-}"
kubeconfig="${kubeconfig%%:*}"
if [[ "${LOCAL_CLUSTER:-0}" == 1 || -z "${kubeconfig}" ]]; then
    if [[ -z "${kubeconfig}" && -f "${HOME}/.kube/config" ]]; then
        echo "run-local: KUBECONFIG is not set: using the local cluster, not ${HOME}/.kube/config (KUBECONFIG=${HOME}/.kube/config make run uses that)" >&2
    fi
    start_local kube
    kubeconfig="${REPO_ROOT}/_output/local/kube/kubeconfig"
else
    echo "run-local: using the cluster of KUBECONFIG=${kubeconfig}" >&2
fi
export KUBECONFIG="${kubeconfig}"
if ! kubectl version >/dev/null 2>&1; then
    echo "run-local: the cluster in ${kubeconfig} does not answer; fix it, or unset KUBECONFIG (or LOCAL_CLUSTER=1) for the local one" >&2
    exit 1
fi

neutron_flags=()
local_cloud=0
local_neutron=0
if [[ -n "${OS_CLOUD:-}" ]]; then
    neutron_flags=(-os-cloud "${OS_CLOUD}")
elif [[ -n "${NEUTRON_ENDPOINT:-}" ]]; then
    neutron_flags=(-neutron-endpoint "${NEUTRON_ENDPOINT}")
elif [[ "${NOAUTH:-0}" == 1 ]]; then
    start_local neutron
    local_neutron=1
    NEUTRON_ENDPOINT="http://127.0.0.1:${NEUTRON_PORT:-19696}/"
    neutron_flags=(-neutron-endpoint "${NEUTRON_ENDPOINT}")
else
    start_keystone
    local_cloud=1
    local_neutron=1
    export OS_CLIENT_CONFIG_FILE="${REPO_ROOT}/_output/local/keystone/clouds.yaml"
    neutron_flags=(-os-cloud k8s)
fi

echo "run-local: installing the CRDs (Network, ClusterIdentity)"
kubectl apply -f crd/
kubectl wait --for condition=Established --timeout=60s crd/networks.samplecrd.k8s.io crd/clusteridentities.samplecrd.k8s.io >/dev/null
if [[ " ${started[*]} " == *" kube "* ]] || [[ "${kubeconfig}" == "${REPO_ROOT}/_output/local/kube/kubeconfig" ]]; then
    # Only in the cluster this script runs: Networks of namespace default may keep their
    # resources (deletionPolicy Retain) and import networks in the local project.
    echo "run-local: granting namespace default Retain and import in the controller's cloud (ClusterIdentity local-default)"
    kubectl apply -f - <<'YAML'
apiVersion: samplecrd.k8s.io/v1
kind: ClusterIdentity
metadata: {name: local-default}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: default}}
  allow: {retain: true, import: true}
YAML
fi

if [[ "${local_neutron}" == 1 ]]; then
    echo "run-local: the local cloud runs $(hack/local-neutron.sh versions)"
fi
cat <<MSG

run-local: starting the controller. In another terminal:
    export KUBECONFIG=${kubeconfig}
    kubectl apply -f example/
    kubectl get networks            # READY True within seconds
MSG
if [[ "${local_cloud}" == 1 ]]; then
    cat <<MSG
    export OS_CLIENT_CONFIG_FILE=${OS_CLIENT_CONFIG_FILE}
    openstack --os-cloud k8s network list        # what the controller made, as it sees it
    openstack --os-cloud k8s subnet show <ID>
MSG
elif [[ -n "${NEUTRON_ENDPOINT:-}" ]]; then
    echo "    curl -s ${NEUTRON_ENDPOINT}v2.0/networks | jq '.networks[] | {id, name, tags}'"
fi
if ((${#started[@]})); then
    echo "Ctrl-C stops the controller and the local servers this script started (${started[*]})."
else
    echo "Ctrl-C stops the controller."
fi
echo

# Not exec: the EXIT trap must run after the controller stops.
"${BIN}" -kubeconfig "${kubeconfig}" "${neutron_flags[@]}" -v=2 "$@"
