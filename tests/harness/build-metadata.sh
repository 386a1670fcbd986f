#!/usr/bin/env bash
# Builds the presets through the flake's own lib.mkMetadata with the host-backed stand-in for
# nixpkgs (./pkgs.nix) and prints the metadata store path as its last line:
#   nixshed serve --metadata "$(npm run --silent harness:metadata)"
# --test-environments adds the environments the isolation tests need (see ./metadata.nix).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tests=false
[ "${1-}" = --test-environments ] && tests=true

# The versions of the Debian packages the stand-in links, as a Nix attribute set (epoch dropped and
# `~` replaced: store path names allow neither).
debs=(bash coreutils findutils grep sed gawk jq diffutils file tree nodejs bubblewrap socat curl python3.11 python3-requests python3-yaml python3-numpy ca-certificates)
versions=$(dpkg-query -W -f '"${Package}" = "${Version}";\n' "${debs[@]}" 2>/dev/null | sed -e 's/= "[0-9]*:/= "/' -e 's/~/-/g' | tr '\n' ' ' || true)

nix --extra-experimental-features 'nix-command flakes' --option substituters '' \
  build --impure --no-link --json \
  --expr "import $root/tests/harness/metadata.nix { flake = \"$root\"; hostVersions = { $versions }; testEnvironments = $tests; }" |
  grep -o '"out":"[^"]*"' | tail -1 | cut -d'"' -f4
