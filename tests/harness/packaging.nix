# The real nix/package/ built with this machine's tools (nix-build tests/harness/packaging.nix -A …):
# `npmDeps` (the fixed-output npm dependencies), `daemon`, and `server`, the daemon wrapped by
# server.nix with the harness presets (tests/harness/pkgs.nix; no nixpkgs, no index).
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
      inherit (packaging) runCommand makeBinaryWrapper stdenv;
    };
    nixpkgs = null;
    prebuildIndex = false;
    inherit daemon nixshedLib;
    environments = map (preset: nixshedLib.environments.${preset} {
      pkgs = harness;
      mounts = harness.hostMounts;
    }) [ "shell" "python" ];
  };
}
