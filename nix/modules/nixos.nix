# NixOS module: `programs.nixshed`.
#
# `programs`, not `services`: nixshed is not a system service. Each MCP client starts its own
# `nixshed` over stdio, as the user, in the user's project; nothing listens and no unit runs. This
# module installs the server and writes what every user's server reads: /etc/nixshed/config.toml
# and the system sandboxes under /etc/nixshed/sandboxes.
{
  config,
  lib,
  pkgs,
  ...
}:
let
  cfg = config.programs.nixshed;
  common = import ./common.nix { inherit lib pkgs; };
in
{
  options.programs.nixshed = {
    enable = lib.mkEnableOption "nixshed, the MCP server for nixpkgs, jailed sandboxes and project-aware tools";
  }
  // common.options cfg "/etc/nixshed/config.toml" "/etc/nixshed/sandboxes";

  config = lib.mkIf cfg.enable {
    assertions = [
      {
        assertion = config.security.allowUserNamespaces;
        message = "programs.nixshed: its sandboxes run in bubblewrap, which needs user namespaces; security.allowUserNamespaces is off.";
      }
    ];

    environment.systemPackages = [ cfg.package ];

    environment.etc = common.files cfg;

    # A system built from a flake names its nixpkgs source (lib.nixosSystem sets nixpkgs.flake.source):
    # that store path is served as it is, where pkgs.path would be hashed into the store again.
    programs.nixshed.nixpkgs = lib.mkIf ((config.nixpkgs.flake.source or null) != null) (lib.mkDefault config.nixpkgs.flake.source);

    # bubblewrap runs unprivileged, in a new user namespace. Stock kernels allow that and have no
    # kernel.unprivileged_userns_clone switch at all; the hardened kernel has it, off. Only there is
    # it turned on: above the hardened profile's mkDefault, below anything you set yourself.
    security.unprivilegedUsernsClone = lib.mkIf (config.boot.kernelPackages.kernel.isHardened or false) (lib.mkOverride 900 true);
  };
}
