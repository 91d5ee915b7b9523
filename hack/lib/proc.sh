# Sourced by the hack/ scripts that run servers in the background: start_detached,
# pid_alive, pid_running, clean_stale_pidfile, stop_proc and wait_answering. A server is
# known only through the PID file its script wrote, and a PID counts only while its
# command line is still the server's, so a script never stops what it did not start
# (another instance's server, or a process that got a recycled PID).
# Needs log and die (hack/lib/log.sh).

# start_detached PIDFILE OUT COMMAND...: runs COMMAND in the background with its output
# appended to OUT and writes its PID to PIDFILE. setsid gives it its own session and
# process group (PGID == PID), so the caller's Ctrl-C does not reach it and stop_proc
# stops all it forks; it does not get fd 9, the state lock (hack/lib/lock.sh).
start_detached() {
  local pidfile=$1 out=$2
  shift 2
  setsid "$@" >>"${out}" 2>&1 </dev/null 9>&- &
  echo $! >"${pidfile}"
}

# pid_running PID: PID exists and is not a zombie.
pid_running() {
  local pid="$1"
  case "${pid}" in '' | *[!0-9]*) return 1 ;; esac
  [ -r "/proc/${pid}/stat" ] || return 1
  [ "$(awk '{print $3}' "/proc/${pid}/stat" 2>/dev/null)" != Z ]
}

# pid_alive PIDFILE [WORD...]: the PID in PIDFILE runs, and its command line holds the
# WORDs in this order. Prints the PID.
pid_alive() {
  local pidfile=$1 pid cmdline word
  shift
  [ -f "${pidfile}" ] || return 1
  pid="$(cat "${pidfile}" 2>/dev/null || true)"
  case "${pid}" in '' | *[!0-9]*) return 1 ;; esac
  [ -r "/proc/${pid}/cmdline" ] || return 1
  cmdline="$(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null || true)"
  for word in "$@"; do
    case "${cmdline}" in
      *"${word}"*) cmdline="${cmdline#*"${word}"}" ;;
      *) return 1 ;;
    esac
  done
  pid_running "${pid}" || return 1
  echo "${pid}"
}

# clean_stale_pidfile PIDFILE [WORD...]: removes PIDFILE when pid_alive says its server is gone.
clean_stale_pidfile() {
  local pidfile="$1"
  if [ -f "${pidfile}" ] && ! pid_alive "$@" >/dev/null; then
    log "removing stale PID file ${pidfile}"
    rm -f "${pidfile}"
  fi
}

# group_alive PGID: some process of process group PGID still exists.
group_alive() {
  kill -0 -- "-$1" 2>/dev/null
}

# stop_proc NAME PIDFILE [WORD...]: stops the server of PIDFILE (see pid_alive) with
# TERM, and KILL when it is still there after 15 s, then removes PIDFILE. A server
# started by start_detached leads its own process group: the whole group gets the
# signals, so that no worker it forked is left behind.
stop_proc() {
  local name="$1" pidfile="$2" pid pgid i
  shift
  if ! pid="$(pid_alive "$@")"; then
    rm -f "${pidfile}"
    return 0
  fi
  log "stopping ${name} (pid ${pid})"
  pgid="$(ps -o pgid= -p "${pid}" 2>/dev/null | tr -d ' ' || true)"
  if [ "${pgid}" = "${pid}" ]; then
    kill -TERM -- "-${pid}" 2>/dev/null || true
  else
    kill -TERM "${pid}" 2>/dev/null || true
  fi
  for ((i = 0; i < 150; i++)); do
    if [ "${pgid}" = "${pid}" ]; then
      group_alive "${pid}" || break
    else
      kill -0 "${pid}" 2>/dev/null || break
    fi
    sleep 0.1
  done
  if { [ "${pgid}" = "${pid}" ] && group_alive "${pid}"; } || kill -0 "${pid}" 2>/dev/null; then
    log "${name} did not exit after 15 s; sending KILL"
    if [ "${pgid}" = "${pid}" ]; then
      kill -KILL -- "-${pid}" 2>/dev/null || true
    else
      kill -KILL "${pid}" 2>/dev/null || true
    fi
    for ((i = 0; i < 50; i++)); do
      kill -0 "${pid}" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "${pidfile}"
}

# wait_answering NAME PIDFILE CHECK...: waits up to START_TIMEOUT seconds for the command
# CHECK to succeed. Fails early, saying so, when the process in PIDFILE exits (pid_running,
# not pid_alive: right after the fork the child may not have exec'd yet).
wait_answering() {
  local name=$1 pidfile=$2 i
  shift 2
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    "$@" && return 0
    if ! pid_running "$(cat "${pidfile}" 2>/dev/null)"; then
      log "${name} exited"
      return 1
    fi
    sleep 0.1
  done
  return 1
}
