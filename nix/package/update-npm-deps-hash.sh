#!/usr/bin/env bash
# Refreshes nix/package/npm-deps.hash after package-lock.json changed. From the repository root:
#   nix/package/update-npm-deps-hash.sh          # the flake's fixed-output derivation, nixpkgs' npm
#   nix/package/update-npm-deps-hash.sh --host   # the same builder script with this machine's npm
# The first asks Nix for the hash (it builds with an empty one and reads the `got:` line); `--host`
# needs no nixpkgs: it runs fetch-npm-deps.sh by hand and hashes the result with `nix hash path`.
set -euo pipefail
cd "$(dirname "$0")/../.."
nix() { command nix --extra-experimental-features 'nix-command flakes' "$@"; }

if [ "${1-}" = "--host" ]; then
  out=$(mktemp -d)/npm-deps
  bash nix/package/fetch-npm-deps.sh "$(nix eval --raw -f nix/package/source.nix npmManifests)" "$out"
  hash=$(nix hash path "$out")
  rm -rf "$(dirname "$out")"
else
  system=$(nix eval --impure --raw --expr builtins.currentSystem)
  hash=$(nix build --no-link --impure --expr \
    "((builtins.getFlake (toString ./.)).packages.$system.daemon.npmDeps.overrideAttrs { outputHash = \"\"; })" \
    2>&1 | tee /dev/stderr | sed -n 's/^ *got: *//p')
fi
[ -n "$hash" ] || { echo "update-npm-deps-hash: no hash obtained (see the errors above)" >&2; exit 1; }
echo "$hash" > nix/package/npm-deps.hash
echo "nix/package/npm-deps.hash: $hash"
