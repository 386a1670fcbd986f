# What the NixOS and home-manager modules share: the options whose meaning is the same in both (the
# package, settings, sandboxes, the nixpkgs to serve) and how they become files.
{ lib, pkgs }:
let
  inherit (lib) mkOption types;
  nixshedLib = import ../lib;
  toml = pkgs.formats.toml { };
in
{
  options = cfg: configFile: sandboxDir: {
    package = mkOption {
      type = types.package;
      default = import ../package/server.nix {
        inherit pkgs nixshedLib;
        inherit (cfg) nixpkgs prebuildIndex prerealise;
        nixpkgsSettings = cfg.settings.nixpkgs or { };
        sandboxSettings = cfg.settings.sandbox or { };
      };
      defaultText = lib.literalMD "nixshed built with this `pkgs`, serving {option}`nixpkgs`";
      description = "The nixshed server: the daemon wrapped with its presets and the nixpkgs it serves.";
    };

    nixpkgs = mkOption {
      type = types.path;
      default = pkgs.path;
      defaultText = lib.literalExpression "pkgs.path";
      description = ''
        The nixpkgs source that `nixpkgs_search` indexes and `nixpkgs_execute` realises packages from.
        The default, the nixpkgs this configuration is built with, keeps the two in step.
      '';
    };

    prebuildIndex = mkOption {
      type = types.bool;
      default = true;
      description = ''
        Build the search index of {option}`nixpkgs` together with the package (it evaluates all of
        nixpkgs once: minutes and a few GB of memory at build time), so that the first search answers
        at once. Off: the daemon builds the index in the background on the first search and caches it.
      '';
    };

    prerealise = mkOption {
      type = types.listOf types.str;
      default = [ ];
      example = [
        "jq"
        "pandoc"
      ];
      description = ''
        Attribute paths of {option}`nixpkgs` packages to build together with the package, wrapped as
        `nixpkgs_execute` runs them (with the network and project access that {option}`settings`
        give them), so that their first run starts at once. `nixshed doctor` lists them.
      '';
    };

    settings = mkOption {
      inherit (toml) type;
      default = { };
      example = lib.literalExpression ''
        {
          fs.read_only = true;
          sandbox.max_timeout_seconds = 120;
        }
      '';
      description = ''
        Configuration written to {file}`${configFile}`; the keys are those of
        `config.example.toml` in the nixshed repository. Later layers (the user's file, the
        project's `.nixshed.toml` (only to narrow, unless trusted with `nixshed trust`), `NIXSHED_*`
        variables, flags) still override it.
      '';
    };

    sandboxes = mkOption {
      type = types.attrsOf (types.attrsOf types.raw);
      default = { };
      example = lib.literalExpression ''
        {
          data = {
            interpreter = "python";
            packages = [ (pkgs.python3.withPackages (ps: [ ps.pandas ])) ];
            memoryMb = 1024;
          };
        }
      '';
      description = ''
        Custom sandboxes, each the arguments of nixshed's `lib.mkSandbox` without `pkgs` and `name`
        (the attribute name). They are linked under {file}`${sandboxDir}`, where the daemon
        discovers them; a sandbox named like a preset replaces it.
      '';
    };
  };

  # The files the daemon reads, relative to /etc or $XDG_CONFIG_HOME: the shape of environment.etc
  # and xdg.configFile.
  files =
    cfg:
    lib.optionalAttrs (cfg.settings != { }) {
      "nixshed/config.toml".source = toml.generate "nixshed-config.toml" cfg.settings;
    }
    // lib.mapAttrs' (
      name: args:
      lib.nameValuePair "nixshed/sandboxes/${name}" {
        source = nixshedLib.mkSandbox ({ inherit pkgs name; } // args);
      }
    ) cfg.sandboxes;
}
