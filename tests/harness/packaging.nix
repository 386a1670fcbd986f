# The real nix/package/ built with this machine's tools (nix-build tests/harness/packaging.nix -A …):
# `npmDeps` (the fixed-output npm dependencies), `daemon`, and `server`, the daemon wrapped by
# server.nix as packages.default is: presets (the harness' tests/harness/pkgs.nix), a nixpkgs (the
# fixture of tests/fixtures/nixpkgs, used in place) and its index, built by mkNixpkgsIndex with
# this very daemon.
let
  packaging = import ./packaging-pkgs.nix { };
  harness = import ./pkgs.nix { };
  daemon = import ../../nix/package packaging;
  nixshedLib = import ../../nix/lib;
in
{
  inherit daemon;
  inherit (daemon) npmDeps;
  server = import ../../nix/package/server.nix {
    # Presets and metadata from the harness pkgs; runCommand and makeWrapper that know setup hooks.
    pkgs = harness // {
      inherit (packaging) runCommand makeBinaryWrapper stdenv nix;
    };
    nixpkgs = "${toString ../..}/tests/fixtures/nixpkgs";
    inherit daemon nixshedLib;
    prebuildIndex = true;
    environments = map (preset: nixshedLib.environments.${preset} {
      pkgs = harness;
      mounts = harness.hostMounts;
    }) [ "shell" "python" ];
  };
}
