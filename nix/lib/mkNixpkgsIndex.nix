# mkNixpkgsIndex: nixpkgs_search's prebuilt index of a nixpkgs, as a derivation.
#
#   mkNixpkgsIndex { pkgs, nixpkgs, daemon ? nixshed's daemon package built with pkgs }
#
# Evaluates `nixpkgs` (a source tree, e.g. the flake's pinned input) inside the build with nix-env,
# the way nixpkgs' own pkgs/top-level/make-tarball.nix makes the channel's packages.json: a private
# state directory, no NIX_PATH, read-only evaluation, and that nixpkgs' own
# pkgs/top-level/packages-config.nix as its config (aliases and variants left out, package sets such
# as rPackages recursed into, bootstrap and test sets hidden), or, in a nixpkgs without that file,
# aliases and variants left out alone. Then it turns that metadata
# into nixshed's compact index with `nixshed index build`. The result is the index file itself:
# give it to mkMetadata as `nixpkgsIndex`, or to `nixshed serve --nixpkgs-index`.
{
  pkgs,
  nixpkgs,
  daemon ? import ../package pkgs,
}:
let
  source = import ./nixpkgsSource.nix nixpkgs;
in
pkgs.runCommand "nixpkgs-index"
  {
    # Evaluating all of nixpkgs takes minutes and gigabytes; there is nothing to fetch.
    preferLocalBuild = true;
    allowSubstitutes = false;
  }
  ''
    export NIX_STATE_DIR=$TMPDIR NIX_PATH= HOME=$TMPDIR
    config='{ allowAliases = false; allowVariants = false; }'
    if [ -e ${source}/pkgs/top-level/packages-config.nix ]; then
      config='import ${source}/pkgs/top-level/packages-config.nix'
    fi
    ${pkgs.nix}/bin/nix-env -f ${source} -qaP --json --meta --readonly-mode --show-trace \
      --arg config "$config" > packages.json
    ${daemon}/bin/nixshed index build --from packages.json --out "$out"
  ''
