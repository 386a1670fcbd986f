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
  # Attribute paths of nixpkgs packages realised ahead, with the permissions the config's [nixpkgs]
  # and [sandbox] tables give them (as the daemon would, see daemon/src/nixpkgs/execute/execute.ts).
  prerealise ? [ ],
  nixpkgsSettings ? { },
  sandboxSettings ? { },
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
  served = if nixpkgs == (pkgs.path or null) then pkgs else import nixpkgs { inherit (pkgs.stdenv.hostPlatform) system; };
  rank = access: if access == "none" then 0 else if access == "ro" then 1 else 2;
  ahead =
    attr:
    let
      own = nixpkgsSettings.permissions.${attr} or { };
      wanted = own.project_access or nixpkgsSettings.project_access or "ro";
      cap = sandboxSettings.project_access or "rw";
    in
    {
      inherit attr;
      package = builtins.foldl' (set: name: set.${name}) served (builtins.filter builtins.isString (builtins.split "\\." attr));
      network = own.network or nixpkgsSettings.network or false;
      projectAccess = if rank wanted <= rank cap then wanted else cap;
      mounts = nixpkgsSettings.extra_mounts or [ ];
    };
  metadata = nixshedLib.mkMetadata {
    inherit pkgs nixpkgs;
    environments = presets;
    nixpkgsIndex = if prebuildIndex then nixshedLib.mkNixpkgsIndex { inherit pkgs nixpkgs daemon; } else null;
    realised = map ahead prerealise;
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
