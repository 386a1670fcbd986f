# home-manager module: `programs.nixshed`.
#
# Installs the server, writes $XDG_CONFIG_HOME/nixshed/config.toml and links the user's sandboxes
# under $XDG_CONFIG_HOME/nixshed/sandboxes (the daemon reads both), and registers the server with
# home-manager's shared MCP list, `programs.mcp.servers`, which the client modules consume when
# their `enableMcpIntegration` is on. `mcp.clients` turns that on for you.
{
  config,
  options,
  lib,
  pkgs,
  ...
}:
let
  cfg = config.programs.nixshed;
  common = import ./common.nix { inherit lib pkgs; };
  server = {
    command = lib.getExe cfg.package;
    args = [ "serve" ];
  };

  # The client modules' switches that pull programs.mcp.servers in. Not every home-manager release
  # has each of them: only those that exist here are set, and a chosen client without one fails
  # the assertion below instead of the evaluation.
  integrations =
    lib.genAttrs [
      "antigravity-cli" # formerly gemini-cli
      "claude-code"
      "codex"
      "crush"
      "gemini-cli"
      "github-copilot-cli"
      "opencode"
      "zed-editor"
    ] (client: [ "programs" client "enableMcpIntegration" ])
    // {
      vscode = [ "programs" "vscode" "profiles" "default" "enableMcpIntegration" ];
    };
  hasOption =
    path:
    let
      # Options inside an attrsOf submodule (vscode's profiles.<name>) are found through its type.
      found = lib.attrByPath (lib.take 3 path) null options;
    in
    if lib.elemAt path 2 == "profiles" then
      found != null && (found.type.getSubOptions [ ]) ? ${lib.last path}
    else
      lib.hasAttrByPath path options;
  available = lib.filterAttrs (_: hasOption) integrations;
  chosen = client: cfg.enable && cfg.mcp.enable && lib.elem client cfg.mcp.clients;
  # home-manager 25.11's claude-code module has mcpServers but no enableMcpIntegration yet.
  claudeCodeDirect = !(available ? claude-code) && lib.hasAttrByPath [ "programs" "claude-code" "mcpServers" ] options;
  hasSharedList = lib.hasAttrByPath [ "programs" "mcp" "servers" ] options;
in
{
  options.programs.nixshed = {
    enable = lib.mkEnableOption "nixshed, the MCP server for nixpkgs, jailed sandboxes and project-aware tools";

    mcp = {
      enable = lib.mkOption {
        type = lib.types.bool;
        default = true;
        description = "Register nixshed in {option}`programs.mcp.servers` (written to {file}`$XDG_CONFIG_HOME/mcp/mcp.json`).";
      };
      clients = lib.mkOption {
        type = lib.types.listOf (lib.types.enum (lib.attrNames integrations));
        default = [ ];
        example = [
          "claude-code"
          "vscode"
        ];
        description = ''
          MCP clients whose home-manager module should pick nixshed up from {option}`programs.mcp.servers`
          (this sets their `enableMcpIntegration`; for vscode, that of the default profile). The client's
          own `enable` stays yours. For clients home-manager has no option for, see the README.
        '';
      };
    };
  }
  // common.options cfg "$XDG_CONFIG_HOME/nixshed/config.toml" "$XDG_CONFIG_HOME/nixshed/sandboxes";

  config = lib.mkMerge (
    [
      (lib.mkIf cfg.enable {
        assertions = map (client: {
          assertion = available ? ${client} || (client == "claude-code" && claudeCodeDirect);
          message = "programs.nixshed.mcp.clients: this home-manager has no ${lib.concatStringsSep "." integrations.${client}}; add nixshed to ${client} by hand (README, \"Client configuration\").";
        }) cfg.mcp.clients
        ++ [
          {
            assertion = !cfg.mcp.enable || hasSharedList;
            message = "programs.nixshed.mcp.enable: this home-manager has no programs.mcp; set programs.nixshed.mcp.enable = false and configure your client by hand (README).";
          }
        ];

        home.packages = [ cfg.package ];

        xdg.configFile = common.files cfg;
      })
    ]
    ++ lib.optional hasSharedList (
      lib.mkIf (cfg.enable && cfg.mcp.enable) {
        programs.mcp.enable = lib.mkDefault true;
        programs.mcp.servers.nixshed = server;
      }
    )
    ++ lib.mapAttrsToList (client: path: lib.mkIf (chosen client) (lib.setAttrByPath path true)) available
    ++ lib.optional claudeCodeDirect (
      lib.mkIf (chosen "claude-code") {
        programs.claude-code.mcpServers.nixshed = { type = "stdio"; } // server;
      }
    )
  );
}
