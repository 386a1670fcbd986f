# Builder of tests/harness/packaging-pkgs.nix's mkDerivation: a few lines of what stdenv's setup does.
set -euo pipefail
runHook() { :; }
for input in ${nativeBuildInputs:-}; do
  PATH="$input/bin:$PATH"
  if [ -f "$input/nix-support/setup-hook" ]; then source "$input/nix-support/setup-hook"; fi
done
export PATH
if [ -n "${buildCommand:-}" ]; then
  eval "$buildCommand"
  exit
fi
cp -r --no-preserve=mode "$src" source
cd source
eval "${buildPhase:-}"
eval "${installPhase:-}"
