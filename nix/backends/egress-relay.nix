# The relay of a jail with a network allow-list (./egress-relay.c): one process joins every
# connection to 127.0.0.1:3128 to the daemon's egress proxy (socat's fork per connection cost about
# 5 ms each). ./bubblewrap.nix starts it; `npm run bench -- egress` measures it.
{ runCommandCC }:
runCommandCC "nixshed-egress-relay" { } ''
  mkdir -p "$out/bin"
  $CC -O2 -Wall -o "$out/bin/nixshed-egress-relay" ${./egress-relay.c}
''
