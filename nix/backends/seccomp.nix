# The seccomp filter every jail runs under (./seccomp.c): no set-user-ID or set-group-ID file, no kernel keyrings.
# Compiled and run at build time; bin/run hands its output to bwrap (--seccomp).
{ runCommandCC }:
runCommandCC "nixshed-seccomp.bpf" { } ''
  $CC -O2 -Wall -Werror -o seccomp ${./seccomp.c}
  ./seccomp > "$out"
''
