# The body of bin/run and bin/session-run (./bubblewrap.nix puts the artifact's constants above it:
# bwrap, seccomp, static, entry, interpreter, code_file, run_flags, kernel, artifact_access, memory_mb, max_processes,
# env_name, sleep, loadables, relay).
#
#   bin/run                  code from NIXSHED_JAIL_CODE_FD (default: stdin), run by the interpreter
#   bin/run -- PROGRAM ARGS  a program of the environment, stdin passed through
#   bin/run --limits         which mechanism would enforce the limits here: cgroup1, systemd or rlimit
#   bin/session-run          the interpreter's session kernel, its protocol on descriptors 3 and 4
#
# Per call (decided by the daemon's jail policy, daemon/src/jail/policy.ts; all optional):
#   NIXSHED_JAIL_PROJECT_DIR     the host directory mounted at /project
#   NIXSHED_JAIL_PROJECT_ACCESS  none | ro | rw (capped at the artifact's own access)
#   NIXSHED_JAIL_PROTECT         with rw, lines "ro PATH" (kept read-only) and "pin PATH" (a directory
#                                on the way, bound over itself so it cannot be renamed or replaced),
#                                project-relative, parents first; each must exist (the daemon made
#                                placeholders for missing ones)
#   NIXSHED_JAIL_CWD             where the program starts (default /workspace)
#   NIXSHED_JAIL_CODE_FD         the descriptor the code comes on (default: stdin)
#
# Signals: SIGTERM/SIGHUP stop the jail (every process in it dies); SIGINT stops bin/run but only
# interrupts the running code under bin/session-run.
#
# Limits: a fresh cgroup per run (v1 as root, or a systemd scope), else rlimits. The cgroup is
# removed when the jail ends or bin/run gets SIGTERM/SIGINT/SIGHUP; cgroups left by a bin/run that
# was SIGKILLed are removed by the next run.
# The constants come from bubblewrap.nix above this body; traps and `launch &` call functions indirectly.
# shellcheck disable=SC2154,SC2317
set -u

# The host's programs bin/run calls (systemd-run, cat) are looked up in PATH's absolute directories only:
# an empty or relative entry is the working directory, often the project, which chooses nothing the host runs.
IFS=: read -ra path_dirs <<<"${PATH-}"
absolute=
for dir in "${path_dirs[@]}"; do
  if [[ $dir == /* ]]; then absolute+=${absolute:+:}$dir; fi
done
PATH=$absolute

fail() {
  echo "nixshed jail ($env_name): $*" >&2
  exit 125
}

declare -A rank=([none]=0 [ro]=1 [rw]=2)

# The seccomp filter (./seccomp.c) on a descriptor of its own, which bwrap reads and closes.
exec {seccomp_fd}<"$seccomp" || fail "cannot read the seccomp filter $seccomp"
dynamic=(--seccomp "$seccomp_fd")
if [ -n "${NIXSHED_JAIL_PROJECT_DIR-}" ]; then
  wanted=${NIXSHED_JAIL_PROJECT_ACCESS:-$artifact_access}
  [ -n "${rank[$wanted]-}" ] || fail "NIXSHED_JAIL_PROJECT_ACCESS must be none, ro or rw, not '$wanted'"
  [ "${rank[$wanted]}" -le "${rank[$artifact_access]}" ] || wanted=$artifact_access
  [ -d "$NIXSHED_JAIL_PROJECT_DIR" ] || fail "project directory $NIXSHED_JAIL_PROJECT_DIR does not exist"
  case "$wanted" in
    ro) dynamic+=(--ro-bind "$NIXSHED_JAIL_PROJECT_DIR" /project) ;;
    rw)
      dynamic+=(--bind "$NIXSHED_JAIL_PROJECT_DIR" /project)
      # Each line is "MODE PATH", the path exactly as the daemon checked it: read whole, never trimmed
      # ("L " is not "L", which may be a symlink out of the project).
      while IFS= read -r line; do
        [ -n "$line" ] || continue
        mode=${line%% *} path=${line#* }
        case "$mode" in
          ro) dynamic+=(--ro-bind "$NIXSHED_JAIL_PROJECT_DIR/$path" "/project/$path") ;;
          pin) dynamic+=(--bind "$NIXSHED_JAIL_PROJECT_DIR/$path" "/project/$path") ;;
          *) fail "NIXSHED_JAIL_PROTECT: '$mode $path' is not 'ro PATH' or 'pin PATH'" ;;
        esac
      done <<<"${NIXSHED_JAIL_PROTECT-}"
      ;;
  esac
fi
dynamic+=(--chdir "${NIXSHED_JAIL_CWD:-/workspace}")

case "$entry" in
  run)
    if [ "${1-}" = "--limits" ]; then
      # Which mechanism enforces the limits here, decided below; the daemon's doctor asks this
      # instead of deciding again.
      limits_only=1
    elif [ "${1-}" = "--" ]; then
      shift
      [ $# -gt 0 ] || fail "usage: bin/run -- PROGRAM [ARGS…]"
      command=("$@")
    else
      [ $# -eq 0 ] || fail "usage: bin/run < code, or bin/run -- PROGRAM [ARGS…]"
      code_fd=${NIXSHED_JAIL_CODE_FD:-}
      # By hand the code comes on stdin; the program then reads an empty stdin, not a closed one.
      [ -n "$code_fd" ] || exec {code_fd}<&0 </dev/null
      # bwrap reads the whole descriptor into the jail's own file and closes it.
      dynamic+=(--ro-bind-data "$code_fd" "/run/nixshed/$code_file")
      command=("$interpreter" "${run_flags[@]}" "/run/nixshed/$code_file")
    fi
    ;;
  session-run)
    command=("$interpreter" "$kernel" "$@")
    # The session protocol (agent/kernel.py): requests on 3, replies on 4.
    protocol_fds="3 4"
    ;;
esac

# A network allow-list (the artifact has a relay): the daemon's egress proxy for this jail,
# NIXSHED_JAIL_EGRESS_SOCKET, is bound at /run/nixshed/egress.sock and the relay starts before the
# program (told which entry it serves: a run's counters of refused ways out are sent when it is done,
# a session's at each call's end). Without the socket (by hand) the jail has no network at all.
if [ -n "$relay" ] && [ -n "${NIXSHED_JAIL_EGRESS_SOCKET-}" ]; then
  [ -S "$NIXSHED_JAIL_EGRESS_SOCKET" ] || fail "NIXSHED_JAIL_EGRESS_SOCKET: $NIXSHED_JAIL_EGRESS_SOCKET is not a socket"
  dynamic+=(--bind "$NIXSHED_JAIL_EGRESS_SOCKET" /run/nixshed/egress.sock)
  command=("$relay" "$entry" "${command[@]}")
fi

limits=rlimit
if [ -w /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/pids ] && [ -e /sys/fs/cgroup/pids/cgroup.procs ]; then
  limits=cgroup1
elif command -v systemd-run >/dev/null &&
  { [ "$EUID" = 0 ] && [ -S /run/systemd/private ] || [ -S "${XDG_RUNTIME_DIR-/nonexistent}/systemd/private" ]; }; then
  limits=systemd
fi
if [ -n "${limits_only-}" ]; then
  echo "$limits"
  exit 0
fi

# Sets $cgroup to the directory of our own cgroup in a v1 hierarchy, so the jail's cgroup nests
# under it (a variable, not output: a command substitution would cost a fork).
own_cgroup() {
  local line path
  cgroup="/sys/fs/cgroup/$1"
  while IFS= read -r line; do
    path=${line#*:}
    if [[ ",${path%%:*}," == *",$1,"* ]]; then
      path=${path#*:}
      cgroup="/sys/fs/cgroup/$1${path%/}"
      return
    fi
  done </proc/self/cgroup
}

# mkdir and rmdir as builtins, from the loadables of the bash running us where it has them (nixpkgs'
# does): a program costs a fork and an exec, about 1 ms, on every run. Else the programs.
load_builtin() {
  [ -e "$loadables/$1" ] && enable -f "$loadables/$1" "$1" 2>/dev/null
}

# Kills what still runs in a cgroup. Another run's cleanup may remove it at any moment, so a
# cgroup.procs gone is no error (silenced around the loop: a redirection after `<` would come too late).
kill_members() {
  local pid
  { while read -r pid; do kill -KILL "$pid"; done <"$1/cgroup.procs"; } 2>/dev/null
}

# Removes one of our cgroups, killing what still runs in it (one already gone is done: a later
# run's cleanup may have removed it first).
remove_cgroup() {
  local tries
  for ((tries = 0; tries < 200; tries++)); do
    [ -d "$1" ] || return 0
    kill_members "$1"
    rmdir "$1" 2>/dev/null && return
    "$sleep" 0.005
  done
}

# Removes our cgroups and the stale ones the sweep found, if their owner is still dead (its pid may
# belong to a new run by now). One rmdir for all of them: usually the only program cleanup runs.
cleanup() {
  [ "$limits" = cgroup1 ] || return 0
  local cg dead=()
  load_builtin rmdir
  for cg in "${stale_cgroups[@]}"; do kill -0 "${cg##*-}" 2>/dev/null || dead+=("$cg"); done
  rmdir "${cgroups[@]}" "${dead[@]}" 2>/dev/null
  for cg in "${cgroups[@]}"; do remove_cgroup "$cg"; done
}

cgroups=() stale_cgroups=()
if [ "$limits" = cgroup1 ]; then
  own_cgroup memory
  memory_cg="$cgroup/nixshed-$$"
  own_cgroup pids
  pids_cg="$cgroup/nixshed-$$"
  # Cgroups of a bin/run that died without cleaning up (SIGKILL), or one a previous run's cleanup
  # is still removing: whatever still runs in them is an orphaned jail, killed now; the cgroups
  # are removed with ours at exit (a program to run, which the jail need not wait for). One named
  # like ours is a dead run's whose pid we got: it goes now, or its limits and counts would be ours.
  for stale in "${memory_cg%/*}"/nixshed-* "${pids_cg%/*}"/nixshed-*; do
    { [ -d "$stale" ] && { [ "${stale##*-}" = $$ ] || ! kill -0 "${stale##*-}" 2>/dev/null; }; } || continue
    kill_members "$stale"
    if [ "${stale##*-}" = $$ ]; then remove_cgroup "$stale"; else stale_cgroups+=("$stale"); fi
  done
  load_builtin mkdir
  mkdir -p "$memory_cg" "$pids_cg" || fail "cannot create cgroups under ${memory_cg%/*}"
  cgroups=("$memory_cg" "$pids_cg")
  echo $((memory_mb * 1024 * 1024)) >"$memory_cg/memory.limit_in_bytes"
  [ ! -e "$memory_cg/memory.memsw.limit_in_bytes" ] || echo $((memory_mb * 1024 * 1024)) >"$memory_cg/memory.memsw.limit_in_bytes"
  echo "$max_processes" >"$pids_cg/pids.max"
fi

report_limits() {
  [ "$limits" = cgroup1 ] || return 0
  local key value
  while read -r key value; do
    [ "$key" = oom_kill ] && [ "$value" -gt 0 ] &&
      echo "nixshed jail: memory limit reached (${memory_mb} MiB): the kernel killed a process" >&2
  done <"$memory_cg/memory.oom_control"
  read -r key value <"$pids_cg/pids.events"
  [ "$value" -gt 0 ] && echo "nixshed jail: process limit reached (${max_processes} processes): a fork failed" >&2
  return 0
}

# The jail gets nothing but stdin, stdout, stderr and the code (bin/run) or the session protocol's
# descriptors (bin/session-run), and bwrap the seccomp filter's: whatever else the daemon inherited stays outside.
close_other_descriptors() {
  local fd
  for fd in /proc/self/fd/*; do
    fd=${fd##*/}
    case " 0 1 2 $seccomp_fd ${code_fd-} ${protocol_fds-} " in *" $fd "*) ;; *) eval "exec $fd>&-" 2>/dev/null ;; esac
  done
}

launch() {
  close_other_descriptors
  case "$limits" in
    cgroup1)
      # "0" in `tasks` moves the calling thread without the global lock that writing a pid to
      # cgroup.procs takes (an RCU grace period, ~10 ms, on every run).
      { echo 0 >"$memory_cg/tasks" && echo 0 >"$pids_cg/tasks"; } || fail "cannot enter the jail's cgroups"
      exec "$bwrap" "${static[@]}" "${dynamic[@]}" -- "${command[@]}"
      ;;
    systemd)
      local scope=(--scope)
      [ "$EUID" = 0 ] || scope=(--user --scope)
      exec systemd-run "${scope[@]}" --quiet --collect \
        -p MemoryMax="${memory_mb}M" -p MemorySwapMax=0 -p TasksMax="$max_processes" \
        -- "$bwrap" "${static[@]}" "${dynamic[@]}" -- "${command[@]}"
      ;;
    rlimit)
      ulimit -S -d $((memory_mb * 1024)) -u "$max_processes" 2>/dev/null
      exec "$bwrap" "${static[@]}" "${dynamic[@]}" -- "${command[@]}"
      ;;
  esac
}

# Every process of the jail but bwrap's monitor ($child); bwrap's init inside ignores what it
# has no handler for.
jail_processes() {
  if [ "$limits" = cgroup1 ]; then
    cat "$memory_cg/cgroup.procs"
    return
  fi
  local stat line rest pid ppid changed=1
  local -A parent_of=() inside=(["$child"]=1)
  for stat in /proc/[0-9]*/stat; do
    # A process may have exited since the glob (braces: a redirection after the assignment would
    # apply only once its substitution had already failed aloud).
    { line=$(<"$stat"); } 2>/dev/null || continue
    rest=${line##*) }
    read -r _ ppid _ <<<"$rest"
    parent_of[${stat//[^0-9]/}]=$ppid
  done
  while [ "$changed" = 1 ]; do
    changed=0
    for pid in "${!parent_of[@]}"; do
      [ -n "${inside[${parent_of[$pid]}]-}" ] && [ -z "${inside[$pid]-}" ] && inside[$pid]=1 && changed=1
    done
  done
  printf '%s\n' "${!inside[@]}"
}

# bin/session-run: SIGINT interrupts the code running in the session (every process of the jail
# gets it, as from a terminal's Ctrl-C); the session itself stays.
interrupt() {
  local pid comm
  for pid in $(jail_processes); do
    [ "$pid" = "$child" ] && continue
    # The counters connection serves the session's next calls too (socat exits on SIGINT; the relay ignores it).
    [ -n "$relay" ] && read -r comm 2>/dev/null <"/proc/$pid/comm" && [ "$comm" = socat ] && continue
    kill -INT "$pid" 2>/dev/null
  done
}

stop() {
  kill -KILL "$child" 2>/dev/null
  wait "$child" 2>/dev/null
  cleanup
  exit "$1"
}

# In the background (stdin kept: without job control bash would give it /dev/null) so that a
# signal reaches our traps while we wait.
launch <&0 &
child=$!
trap 'stop 143' TERM
trap 'stop 129' HUP
if [ "$entry" = session-run ]; then trap interrupt INT; else trap 'stop 130' INT; fi
# wait returns early when a trap ran; wait again while the jail lives, then once more for its exit
# status (it may have exited while a trap ran: that wait returned 128+signal, not its status).
while kill -0 "$child" 2>/dev/null; do wait "$child"; done
wait "$child"
status=$?
report_limits
# The caller has all it needs once our output closes; removing the cgroups (a few ms) goes on in
# the background, detached from it.
exec </dev/null >/dev/null 2>&1
cleanup &
exit "$status"
