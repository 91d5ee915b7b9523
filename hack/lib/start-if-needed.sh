# Sourced by hack/e2e.sh and hack/bench.sh (through hack/lib/uses-local-servers.sh), which
# run from the repository root and have log(). Not executable on its own.

# What start_if_needed reported, for stop_started_servers; 1: started here. The caller
# sets started_keystone itself (Keystone's start also restarts one with other settings).
started_kube=0
started_neutron=0
started_keystone=0

# start_if_needed NAME SCRIPT: starts SCRIPT unless its status says it runs, and prints 1
# when this script started it. The start's own "already running" counts as not started
# (someone else may have started it between the status and the start).
start_if_needed() {
  local name=$1 script=$2 out
  if "${script}" status >/dev/null 2>&1; then
    log "${name} already running; leaving it running afterwards"
    echo 0
    return
  fi
  log "starting ${name}"
  out="$("${script}" start 2>&1)" || { printf '%s\n' "${out}" >&2; log "starting ${name} failed"; return 1; }
  printf '%s\n' "${out}" >&2
  if grep -q "already running" <<<"${out}"; then
    log "${name} was started by someone else meanwhile; leaving it running afterwards"
    echo 0
  else
    echo 1
  fi
}

# stop_started_servers: stops the local Keystone (with the Keystone-authenticated
# neutron-servers), the local Neutron, then the local kube-apiserver, each only when it was
# started here ($started_keystone, $started_neutron, $started_kube).
stop_started_servers() {
  if [[ "${started_keystone:-0}" == 1 ]]; then
    log "stopping the local Keystone and the Keystone-authenticated Neutron this script started"
    hack/local-keystone.sh stop || true
    hack/local-neutron.sh stop-keystone || true
  fi
  if [[ "${started_neutron:-0}" == 1 ]]; then
    log "stopping the local Neutron this script started"
    hack/local-neutron.sh stop || true
  fi
  if [[ "${started_kube:-0}" == 1 ]]; then
    log "stopping the local kube-apiserver this script started"
    hack/local-kube.sh stop || true
  fi
}
