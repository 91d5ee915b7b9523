#!/usr/bin/env bash
# Gives the local control plane of hack/local-kube.sh a real node: Debian's containerd and
# runc, a kubelet, kube-proxy and kube-scheduler (built from hack/tools like the
# apiserver), and a bridge CNI, so that Pods of deploy/ or the chart run for real.
#
# Usage: hack/local-node.sh start|stop|status|load-image IMAGE
#
#   start       install containerd, runc, the CNI plugins and socat when missing, build the
#               node's binaries, start the node and wait until it is Ready
#   stop        stop all of it and undo what it set up (idempotent; also after a failed start)
#   status      exit 0 when the node runs and is Ready
#   load-image IMAGE  copy IMAGE from podman (or docker) into the node's containerd
#   load-archive ARCHIVE REPOSITORY  import a release's OCI archive (hack/release.sh) into
#               the node's containerd as REPOSITORY:<its tag> and REPOSITORY@<its digest>
#
# Needs root and a running hack/local-kube.sh (LOCAL_KUBE_STATE names which one). One node
# per machine: it serves the control plane it was started for until it is stopped.
#
# What this machine needs, and what it does about it (docs/operations.md, "A real node"):
#  - Pods: addresses in 10.244.77.0/24 on the bridge ncnode0 only. They have routes to that
#    subnet and the Service range only, and a FORWARD rule drops anything leaving the bridge
#    (the bridge plugin turns on net.ipv4.ip_forward; stop puts back the value it found).
#    Whatever they reach is on the bridge's address 10.244.77.1: an apiserver listening
#    there (published as the kubernetes Service's endpoint, which kube-proxy routes to), and
#    socat forwarding NODE_FORWARD_PORTS (Keystone, Neutron) to the same ports on 127.0.0.1.
#    An INPUT rule drops every other packet from the bridge to this host (any address, any
#    port, IPv6 all of them) but answers to the host's own connections (probes, scrapes).
#  - containerd and the kubelet run in a mount namespace of their own. There, read-only
#    files stand over kernel.panic, kernel.panic_on_oops and vm.overcommit_memory showing
#    the values the kubelet wants: with protectKernelDefaults it only reads them, so the
#    machine's kernel settings stay as they are (without it, it would write them).
#  - No CAP_SYS_RESOURCE for root here: containerd keeps oom_score_adj non-negative.
#  - cgroup v1 (hybrid): the kubelet runs with failCgroupV1: false and cgroupfs.
#  - No registry: the Pods' pause image is made here, and images come in by load-image.
#    containerd sends every pull to a closed port on 127.0.0.1, where it fails at once.
#
# Environment:
#   LOCAL_KUBE_STATE    the control plane's state folder (default _output/local/kube)
#   NODE_STATE          this node's state folder (default _output/local/node)
#   NODE_API_PORT       port of the apiserver on the bridge (default 16444)
#   NODE_PORT_BASE      the kubelet's port is BASE+0, its healthz +1, kube-proxy's healthz
#                       and metrics +2 and +3, kube-scheduler's +4 (default 16250)
#   NODE_FORWARD_PORTS  loopback ports Pods reach on 10.244.77.1 (default: Keystone's and
#                       the Keystone-authenticated Neutron's, 15000 19697)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${ROOT}/hack/tools"
BIN_DIR="${ROOT}/_output/bin"
KUBE_STATE="${LOCAL_KUBE_STATE:-${ROOT}/_output/local/kube}"
STATE="${NODE_STATE:-${ROOT}/_output/local/node}"
API_PORT="${NODE_API_PORT:-16444}"
PORT_BASE="${NODE_PORT_BASE:-16250}"
FORWARD_PORTS="${NODE_FORWARD_PORTS:-${KEYSTONE_PORT:-15000} ${NEUTRON_KEYSTONE_PORT:-19697}}"
# shellcheck source=hack/lib/node/network.sh
source "${ROOT}/hack/lib/node/network.sh"
BRIDGE="${NODE_BRIDGE}"
SUBNET="${NODE_SUBNET}"
GATEWAY="${NODE_GATEWAY}"
NODE_NAME=local-node
GUARD=(-i "${BRIDGE}" ! -o "${BRIDGE}" -m comment --comment "network-controller local node: Pods never leave ${BRIDGE}" -j DROP)
# What Pods may send to this host: INPUT_CHAIN, from INPUT of the mangle table (kube-proxy
# puts its own filter INPUT rules, some accepting, before any other).
INPUT_CHAIN=NC-NODE-POD-INPUT
INPUT_JUMP=(-i "${BRIDGE}" -m comment --comment "network-controller local node: what Pods reach on this host" -j "${INPUT_CHAIN}")
INPUT6_GUARD=(-i "${BRIDGE}" -m comment --comment "network-controller local node: Pods reach nothing on this host over IPv6" -j DROP)
# Where containerd pulls every image from: a closed port, which refuses at once; the path
# says why in the Pod's ErrImagePull.
NO_REGISTRY=http://127.0.0.1:1/no-registry-on-the-local-node
PAUSE_IMAGE=localhost/network-controller-node/pause:1
SOCK="${STATE}/containerd/containerd.sock"
# The three kernel settings the kubelet checks, with the values it wants.
declare -A KUBELET_SYSCTLS=([kernel/panic]=10 [kernel/panic_on_oops]=1 [vm/overcommit_memory]=1)

# shellcheck source=hack/lib/log.sh
source "${ROOT}/hack/lib/log.sh"
# shellcheck source=hack/lib/proc.sh
source "${ROOT}/hack/lib/proc.sh"
# shellcheck source=hack/lib/apt.sh
source "${ROOT}/hack/lib/apt.sh"
# shellcheck source=hack/lib/kube-build.sh
source "${ROOT}/hack/lib/kube-build.sh"

kubectl_node() { kubectl --kubeconfig "${KUBE_STATE}/kubeconfig" "$@"; }
holder_pid() { pid_alive "${STATE}/holder.pid" sleep infinity; }
# in_node COMMAND...: COMMAND in the node's mount namespace.
in_node() { nsenter -t "$(holder_pid)" -m -- "$@"; }
ctr_node() { in_node ctr --address "${SOCK}" --namespace k8s.io "$@"; }

# render TEMPLATE: the file of hack/lib/node/ with this node's paths and ports put in.
render() {
  sed -e "s#@STATE@#${STATE}#g" -e "s#@KUBE_STATE@#${KUBE_STATE}#g" -e "s#@PORT_BASE@#${PORT_BASE}#g" \
    -e "s#@PORT1@#$((PORT_BASE + 1))#g" -e "s#@PORT2@#$((PORT_BASE + 2))#g" -e "s#@PORT3@#$((PORT_BASE + 3))#g" \
    -e "s#@BRIDGE@#${BRIDGE}#g" -e "s#@SUBNET@#${SUBNET}#g" -e "s#@GATEWAY@#${GATEWAY}#g" \
    -e "s#@NODE_NAME@#${NODE_NAME}#g" -e "s#@PAUSE_IMAGE@#${PAUSE_IMAGE}#g" "${ROOT}/hack/lib/node/$1"
}

# image_engine: podman or docker, whichever hack/image.sh builds with (it installs podman).
image_engine() {
  local engine
  engine="$("${ROOT}/hack/image.sh" engine)"
  case "${engine}" in
    podman | docker) echo "${engine}" ;;
    *) die "load-image needs podman or docker to save images; hack/image.sh uses ${engine}" ;;
  esac
}

# load_image IMAGE: saves IMAGE from the engine and imports it into the node's containerd.
load_image() {
  local image=$1 engine archive
  engine="$(image_engine)"
  archive="$(mktemp "${STATE}/image.XXXXXX.tar")"
  if [[ "${engine}" == podman ]]; then
    podman save --format oci-archive -o "${archive}" "${image}" >&2
  else
    docker save -o "${archive}" "${image}"
  fi
  ctr_node images import --all-platforms "${archive}" >&2 || { rm -f "${archive}"; die "importing ${image} failed"; }
  rm -f "${archive}"
  log "loaded ${image} into the node"
}

# load_archive ARCHIVE REPOSITORY: imports the OCI archive of hack/release.sh, whose one
# manifest is tagged with the version, by tag and by digest (a Pod naming the image by
# digest finds it only under a name with that digest).
load_archive() {
  local archive=$1 repository=$2 index tag digest
  index="$(tar -xOf "${archive}" ./index.json)" || die "${archive} holds no index.json: not an OCI archive"
  tag="$(jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"] // empty' <<<"${index}")"
  digest="$(jq -r '.manifests[0].digest' <<<"${index}")"
  [[ -n "${tag}" && "${digest}" == sha256:* ]] || die "${archive}: no tagged manifest in index.json"
  # The archive is read from inside the node's mount namespace, which sees this host's files.
  ctr_node images import --all-platforms --base-name "${repository}" "$(realpath "${archive}")" >&2 ||
    die "importing ${archive} failed"
  ctr_node images tag --force "${repository}:${tag}" "${repository}@${digest}" >&2
  log "loaded ${repository}:${tag} (${repository}@${digest}) into the node"
}

# pause_image: the sandbox image, from _output/bin/pause, imported once per start.
pause_image() {
  local engine dir
  engine="$(image_engine)"
  dir="$(mktemp -d "${STATE}/pause.XXXXXX")"
  cp "${BIN_DIR}/pause" "${dir}/pause"
  printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' >"${dir}/Containerfile"
  "${engine}" build -q -t "${PAUSE_IMAGE}" -f "${dir}/Containerfile" "${dir}" >/dev/null
  load_image "${PAUSE_IMAGE}"
  "${engine}" rmi "${PAUSE_IMAGE}" >/dev/null 2>&1 || true
  rm -rf "${dir}"
}

# start_in_node NAME COMMAND...: a detached server in the node's mount namespace.
start_in_node() {
  local name=$1
  shift
  start_detached "${STATE}/${name}.pid" "${STATE}/${name}.log" nsenter -t "$(holder_pid)" -m -- "$@"
}

wait_for() {
  local what=$1 i
  shift
  for ((i = 0; i < 240; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  die "${what} not within 120 s; logs in ${STATE#"${ROOT}"/}/"
}

node_ready() {
  [[ "$(kubectl_node get node "${NODE_NAME}" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" == True ]]
}

# confine_input lets Pods reach on this host, whatever address they send to, the apiserver,
# Keystone and Neutron on the bridge's address and nothing else; answers to the host's own
# connections (the kubelet's probes, a scrape) pass. Pods need no DNS here: their
# resolv.conf names their own loopback. Made anew on each start.
confine_input() {
  iptables -t mangle -N "${INPUT_CHAIN}" 2>/dev/null || iptables -t mangle -F "${INPUT_CHAIN}"
  iptables -t mangle -A "${INPUT_CHAIN}" -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN
  local port
  for port in "${API_PORT}" ${FORWARD_PORTS}; do
    iptables -t mangle -A "${INPUT_CHAIN}" -d "${GATEWAY}" -p tcp --dport "${port}" -j RETURN
  done
  iptables -t mangle -A "${INPUT_CHAIN}" -j DROP
  iptables -t mangle -C INPUT "${INPUT_JUMP[@]}" 2>/dev/null || iptables -t mangle -I INPUT 1 "${INPUT_JUMP[@]}"
  # The bridge has an IPv6 link-local address, where listeners on [::] would answer.
  if [[ -d /proc/sys/net/ipv6 ]]; then
    ip6tables -t mangle -C INPUT "${INPUT6_GUARD[@]}" 2>/dev/null || ip6tables -t mangle -I INPUT 1 "${INPUT6_GUARD[@]}"
  fi
}

# unconfine_input removes what confine_input made, if anything.
unconfine_input() {
  while iptables -t mangle -D INPUT "${INPUT_JUMP[@]}" 2>/dev/null; do :; done
  iptables -t mangle -F "${INPUT_CHAIN}" 2>/dev/null || true
  iptables -t mangle -X "${INPUT_CHAIN}" 2>/dev/null || true
  while ip6tables -t mangle -D INPUT "${INPUT6_GUARD[@]}" 2>/dev/null; do :; done
}

bridge_apiserver_ready() {
  local token
  token="$(cut -d, -f1 "${KUBE_STATE}/pki/tokens.csv" | head -1)"
  [[ "$(curl -fsS --max-time 2 --connect-to "kubernetes:${API_PORT}:${GATEWAY}:${API_PORT}" --cacert "${KUBE_STATE}/pki/ca.crt" \
    -H "Authorization: Bearer ${token}" "https://kubernetes:${API_PORT}/readyz" 2>/dev/null)" == ok ]]
}

cmd_start() {
  [[ "$(id -u)" == 0 ]] || die "the node needs root (containerd, the kubelet, the bridge)"
  # One node per machine (one bridge): it serves the control plane it was started for.
  if holder_pid >/dev/null && [[ "$(cat "${STATE}/kube-state" 2>/dev/null)" != "${KUBE_STATE}" ]]; then
    die "the local node runs for the control plane in $(cat "${STATE}/kube-state" 2>/dev/null || echo '?'); stop it first (hack/local-node.sh stop)"
  fi
  if cmd_status 2>/dev/null; then
    log "already running: node ${NODE_NAME} is Ready"
    return 0
  fi
  LOCAL_KUBE_STATE="${KUBE_STATE}" "${ROOT}/hack/local-kube.sh" status >/dev/null ||
    die "the local control plane (${KUBE_STATE#"${ROOT}"/}) is not running: start it with hack/local-kube.sh start"
  install_packages containerd runc containernetworking-plugins iptables socat curl >&2
  local b
  for b in kubelet kube-proxy kube-scheduler pause; do build_one "${b}" >&2; done
  # Whatever a failed start left behind goes first.
  cmd_stop >/dev/null 2>&1 || true
  mkdir -p "${STATE}"/{containerd,cni/net.d,kubelet,pod-logs,sysctl}
  echo "${KUBE_STATE}" >"${STATE}/kube-state"
  # Paths the kubelet, containerd and the CNI plugins use whatever they are told: stop
  # removes those that were not there before.
  local path
  for path in /var/lib/kubelet /var/lib/cni/results /var/log/containers /run/containerd; do
    [[ -e "${path}" ]] || echo "${path}" >>"${STATE}/host-paths.new"
  done
  # Pods have no cluster DNS; a name server on their own loopback fails fast.
  echo "nameserver 127.0.0.1" >"${STATE}/resolv.conf"
  # Before the bridge exists: no Pod packet ever leaves it. mangle, because kube-proxy puts
  # its own FORWARD rules before any of the filter table's.
  [[ -f "${STATE}/ip_forward.before" ]] || cat /proc/sys/net/ipv4/ip_forward >"${STATE}/ip_forward.before"
  iptables -t mangle -C FORWARD "${GUARD[@]}" 2>/dev/null || iptables -t mangle -I FORWARD 1 "${GUARD[@]}"
  confine_input
  ip link add "${BRIDGE}" type bridge
  ip addr add "${GATEWAY}/24" dev "${BRIDGE}"
  ip link set "${BRIDGE}" up
  render 10-bridge.conflist >"${STATE}/cni/net.d/10-bridge.conflist"

  start_detached "${STATE}/holder.pid" "${STATE}/holder.log" unshare -m --propagation private sleep infinity
  wait_for "the mount namespace" holder_pid
  local key file
  for key in "${!KUBELET_SYSCTLS[@]}"; do
    file="${STATE}/sysctl/${key//\//.}"
    echo "${KUBELET_SYSCTLS[${key}]}" >"${file}"
    in_node mount --bind "${file}" "/proc/sys/${key}"
    in_node mount -o remount,bind,ro "/proc/sys/${key}"
  done

  render containerd.toml >"${STATE}/containerd.toml"
  # Every registry (_default), docker.io included, is NO_REGISTRY: no pull leaves this host.
  # containerd 1.6 refuses a hosts.toml without a [host] table and then pulls from the
  # registry itself: TestNodeConfinesPods would see it.
  mkdir -p "${STATE}/containerd/certs.d/_default"
  printf '# hack/local-node.sh: no registry for the local node; images come in by load-image.\nserver = "%s"\n[host."%s"]\n  capabilities = ["pull", "resolve"]\n' \
    "${NO_REGISTRY}" "${NO_REGISTRY}" >"${STATE}/containerd/certs.d/_default/hosts.toml"
  start_in_node containerd containerd --config "${STATE}/containerd.toml"
  wait_for "containerd" ctr_node version
  pause_image

  # The apiserver Pods reach: in a UTS namespace of its own, so that its identity Lease
  # (named after the host) is not the shared apiserver's.
  # shellcheck disable=SC2046 # the env file holds KEY=value lines without spaces
  start_detached "${STATE}/kube-apiserver.pid" "${STATE}/kube-apiserver.log" \
    env $(cat "${KUBE_STATE}/env") LOCAL_KUBE_STATE="${KUBE_STATE}" \
    unshare -u sh -c 'hostname "$0" && exec "$@"' "${NODE_NAME}-apiserver" \
    "${ROOT}/hack/local-kube.sh" serve-apiserver "${API_PORT}" "${GATEWAY}"
  wait_for "the apiserver on ${GATEWAY}:${API_PORT}" bridge_apiserver_ready
  local port
  for port in ${FORWARD_PORTS}; do
    start_detached "${STATE}/forward-${port}.pid" "${STATE}/forward-${port}.log" \
      socat "TCP-LISTEN:${port},bind=${GATEWAY},reuseaddr,fork" "TCP:127.0.0.1:${port}"
  done

  render kubelet.yaml >"${STATE}/kubelet.yaml"
  start_in_node kubelet "${BIN_DIR}/kubelet" --config="${STATE}/kubelet.yaml" \
    --kubeconfig="${KUBE_STATE}/kubeconfig" --root-dir="${STATE}/kubelet" --cert-dir="${STATE}/kubelet/pki" \
    --hostname-override="${NODE_NAME}" --node-ip="${GATEWAY}"
  render kube-proxy.yaml >"${STATE}/kube-proxy.yaml"
  start_detached "${STATE}/kube-proxy.pid" "${STATE}/kube-proxy.log" "${BIN_DIR}/kube-proxy" --config="${STATE}/kube-proxy.yaml"
  start_detached "${STATE}/kube-scheduler.pid" "${STATE}/kube-scheduler.log" "${BIN_DIR}/kube-scheduler" \
    --kubeconfig="${KUBE_STATE}/kubeconfig" --authentication-kubeconfig="${KUBE_STATE}/kubeconfig" \
    --authorization-kubeconfig="${KUBE_STATE}/kubeconfig" --authentication-skip-lookup=true \
    --bind-address=127.0.0.1 --secure-port=$((PORT_BASE + 4)) --leader-elect=false --profiling=false
  wait_for "node ${NODE_NAME} Ready" node_ready
  log "node ${NODE_NAME} is Ready: Pods on ${BRIDGE} (${SUBNET}), the apiserver for them on ${GATEWAY}:${API_PORT}"
}

cmd_status() {
  holder_pid >/dev/null && pid_alive "${STATE}/kubelet.pid" kubelet >/dev/null &&
    pid_alive "${STATE}/kube-proxy.pid" kube-proxy >/dev/null && node_ready
}

cmd_stop() {
  if pid_alive "${STATE}/kubelet.pid" kubelet >/dev/null; then
    # The Pods go while the kubelet can still stop them (their containers, mounts, veths).
    kubectl_node delete pods --all-namespaces --all --wait=true --timeout=60s --field-selector "spec.nodeName=${NODE_NAME}" >&2 || true
  fi
  stop_proc kube-scheduler "${STATE}/kube-scheduler.pid" kube-scheduler
  stop_proc kube-proxy "${STATE}/kube-proxy.pid" kube-proxy
  [[ ! -f "${STATE}/kube-proxy.yaml" ]] || "${BIN_DIR}/kube-proxy" --cleanup --config="${STATE}/kube-proxy.yaml" >/dev/null 2>&1 || true
  stop_proc kubelet "${STATE}/kubelet.pid" kubelet
  if holder_pid >/dev/null && pid_alive "${STATE}/containerd.pid" containerd --config >/dev/null; then
    local sandbox
    for sandbox in $(ctr_node tasks ls -q 2>/dev/null); do ctr_node tasks kill -s KILL "${sandbox}" >/dev/null 2>&1 || true; done
  fi
  stop_proc containerd "${STATE}/containerd.pid" containerd --config
  local pid pidfile
  for pid in $(pgrep -f "containerd-shim-runc-v2 .*-address ${SOCK}" || true); do kill -KILL "${pid}" 2>/dev/null || true; done
  for pidfile in "${STATE}"/forward-*.pid; do
    [[ -f "${pidfile}" ]] && stop_proc "socat $(basename "${pidfile}" .pid)" "${pidfile}" socat
  done
  stop_proc "the bridge's kube-apiserver" "${STATE}/kube-apiserver.pid" kube-apiserver "--bind-address=${GATEWAY}"
  stop_proc "the mount namespace" "${STATE}/holder.pid" sleep infinity
  local table ipt
  for ipt in iptables ip6tables; do
    "${ipt}" -D INPUT -j KUBE-FIREWALL 2>/dev/null || true
    "${ipt}" -D OUTPUT -j KUBE-FIREWALL 2>/dev/null || true
    "${ipt}" -F KUBE-FIREWALL 2>/dev/null || true
    "${ipt}" -X KUBE-FIREWALL 2>/dev/null || true
    "${ipt}" -t mangle -X KUBE-IPTABLES-HINT 2>/dev/null || true
    for table in mangle nat filter; do "${ipt}" -t "${table}" -X KUBE-KUBELET-CANARY 2>/dev/null || true; done
  done
  if ip link show "${BRIDGE}" >/dev/null 2>&1; then ip link del "${BRIDGE}"; fi
  while iptables -t mangle -D FORWARD "${GUARD[@]}" 2>/dev/null; do :; done
  unconfine_input
  if [[ -f "${STATE}/ip_forward.before" ]]; then
    [[ "$(cat /proc/sys/net/ipv4/ip_forward)" == "$(cat "${STATE}/ip_forward.before")" ]] ||
      cat "${STATE}/ip_forward.before" >/proc/sys/net/ipv4/ip_forward
    rm -f "${STATE}/ip_forward.before"
  fi
  local dir path
  for dir in /sys/fs/cgroup/*/kubepods; do
    [[ -d "${dir}" ]] && find "${dir}" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  find /var/log/containers -maxdepth 1 -type l -lname "${STATE}/*" -delete 2>/dev/null || true
  find /var/lib/cni/results -maxdepth 1 -name 'network-controller-node-*' -delete 2>/dev/null || true
  # containerd's loopback network of each sandbox, cached under a name of its own.
  [[ ! -f "${STATE}/containerd.toml" ]] ||
    find /var/lib/cni/results -maxdepth 1 -name 'cni-loopback-*' -newer "${STATE}/containerd.toml" -delete 2>/dev/null || true
  if [[ -f "${STATE}/host-paths.new" ]]; then
    while read -r path; do rm -rf "${path}"; done <"${STATE}/host-paths.new"
    rmdir /var/lib/cni 2>/dev/null || true
  fi
  # What containerd and the kubelet mounted lived in the namespace that just ended; the
  # state holds files only now.
  rm -rf "${STATE}"
  log "stopped"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  load-image)
    [[ -n "${2:-}" ]] || die "usage: $0 load-image IMAGE"
    holder_pid >/dev/null || die "the node is not running"
    load_image "$2"
    ;;
  load-archive)
    [[ -n "${2:-}" && -n "${3:-}" ]] || die "usage: $0 load-archive ARCHIVE REPOSITORY"
    holder_pid >/dev/null || die "the node is not running"
    load_archive "$2" "$3"
    ;;
  *) echo "usage: $0 start|stop|status|load-image IMAGE|load-archive ARCHIVE REPOSITORY" >&2; exit 2 ;;
esac
