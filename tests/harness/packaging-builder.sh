# shellcheck shell=bash
# Builder of tests/harness/packaging-pkgs.nix's mkDerivation: a few lines of what stdenv's setup does.
set -euo pipefail
runHook() { :; }
for input in ${nativeBuildInputs:-}; do
  PATH="$input/bin:$PATH"
  # shellcheck source=/dev/null # an input's own setup hook, known only at build time
  if [ -f "$input/nix-support/setup-hook" ]; then source "$input/nix-support/setup-hook"; fi
done
export PATH
if [ -n "${buildCommand:-}" ]; then
  eval "$buildCommand"
  exit
fi
# shellcheck disable=SC2154 # $src is the derivation's attribute, set by Nix
cp -r --no-preserve=mode "$src" source
cd source
eval "${buildPhase:-}"
eval "${installPhase:-}"
