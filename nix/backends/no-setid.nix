# The seccomp filter every jail runs under (./no-setid.c): no set-user-ID or set-group-ID file.
# Compiled and run at build time; bin/run hands its output to bwrap (--seccomp).
{ runCommandCC }:
runCommandCC "nixshed-no-setid.bpf" { } ''
  $CC -O2 -Wall -Werror -o no-setid ${./no-setid.c}
  ./no-setid > "$out"
''
