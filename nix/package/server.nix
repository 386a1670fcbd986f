# The server users run (packages.default, the modules' default package): the daemon wrapped with its
# metadata store path, so `nix run` needs no configuration. The metadata holds the presets (Linux
# only: there is no bubblewrap on darwin, so darwin serves fs, pkg-local and nixpkgs search), the
# nixpkgs that nixpkgs_execute realises packages from, and optionally that nixpkgs' prebuilt index.
# packages.default does not prebuild it: that evaluates all of nixpkgs (minutes, gigabytes) before
# `nix run` could start. The daemon builds the index in the background on the first search and
# caches it; the modules' `prebuildIndex` and packages.nixpkgs-index build it ahead instead.
# NIXSHED_METADATA is only a default: `--metadata` or the variable of the caller still win.
# `environments` (artifacts of mkEnvironment/mkSandbox) replaces the presets.
{
  pkgs,
  nixpkgs,
  prebuildIndex ? false,
  environments ? null,
  daemon ? import ./. pkgs,
  nixshedLib ? import ../lib,
}:
let
  presets =
    if environments != null then
      environments
    else if pkgs.stdenv.hostPlatform.isLinux then
      map (preset: preset { inherit pkgs; }) (builtins.attrValues nixshedLib.environments)
    else
      [ ];
  metadata = nixshedLib.mkMetadata {
    inherit pkgs nixpkgs;
    environments = presets;
    nixpkgsIndex = if prebuildIndex then nixshedLib.mkNixpkgsIndex { inherit pkgs nixpkgs daemon; } else null;
  };
in
pkgs.runCommand "nixshed-${daemon.version}"
  {
    nativeBuildInputs = [ pkgs.makeBinaryWrapper ];
    passthru = { inherit daemon metadata; };
    inherit (daemon) meta;
  }
  ''
    makeWrapper ${daemon}/bin/nixshed "$out/bin/nixshed" --set-default NIXSHED_METADATA ${metadata}
  ''
