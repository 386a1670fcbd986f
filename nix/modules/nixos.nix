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

    # bubblewrap runs unprivileged, in a new user namespace. Stock NixOS kernels allow that; the
    # hardened profile turns it off (kernel.unprivileged_userns_clone = 0). Above the profiles'
    # mkDefault, below anything you set yourself.
    security.unprivilegedUsernsClone = lib.mkOverride 900 true;
  };
}
