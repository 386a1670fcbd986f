# nixshed session kernel for bash: one persistent shell; each call's code is sourced in it, so
# variables, exported variables, functions, options and the working directory persist. Sourced
# from a file, not eval'd: bash's errors then name the code's own lines ("line 2: foo: command not
# found"), not the kernel's.
#
# Protocol: see agent/kernel.py. Bash reads the request's code and stdin up to their NUL
# terminators (the daemon refuses NUL bytes in a bash session's code and stdin), because bash reads
# byte counts in characters of the current locale.
# The protocol descriptors (3, 4) and the saved user stdout/stderr (5, 6) are closed for the
# duration of the user's code: bash keeps its own copies close-on-exec and restores them after, so
# neither the code nor its children (background jobs included) can reach them.

__nixshed_stdin_file="${TMPDIR:-/tmp}/.nixshed-stdin.$$"
__nixshed_code_file="${TMPDIR:-/tmp}/.session.sh"
__nixshed_status=0
exec 5>&1 6>&2 </dev/null

# Sets $? for the user's code to the previous call's exit code.
__nixshed_return() { return "$1"; }

__nixshed_call() {
  __nixshed_return "$__nixshed_status"
  # shellcheck source=/dev/null  # the call's code, written just before
  . "$__nixshed_code_file"
}

# SIGINT (the daemon's timeout) stops the call's code: returning from the trap leaves
# __nixshed_call; the shell and its state stay.
trap '__nixshed_interrupted=1; return 130 2>/dev/null' INT

printf 'ready %d\n' "$$" >&4
while IFS=' ' read -r -u 3 __nixshed_id __nixshed_marker __nixshed_clen __nixshed_slen; do
  IFS= read -r -d '' -u 3 __nixshed_code
  IFS= read -r -d '' -u 3 __nixshed_stdin
  # >|: the code may have set noclobber.
  printf '%s' "$__nixshed_code" >|"$__nixshed_code_file"
  __nixshed_in=/dev/null
  if [[ -n $__nixshed_stdin ]]; then
    __nixshed_in=$__nixshed_stdin_file
    printf '%s' "$__nixshed_stdin" >|"$__nixshed_in"
  fi
  __nixshed_interrupted=0
  __nixshed_call <"$__nixshed_in" 3<&- 4>&- 5>&- 6>&-
  __nixshed_status=$?
  exec 1>&5 2>&6 </dev/null
  [[ $__nixshed_in == /dev/null ]] || : >|"$__nixshed_in"
  __nixshed_state=-
  ((__nixshed_interrupted)) && __nixshed_state=interrupted
  printf '%s' "$__nixshed_marker"
  printf '%s' "$__nixshed_marker" >&2
  printf 'done %s %d %s\n' "$__nixshed_id" "$__nixshed_status" "$__nixshed_state" >&4
done
