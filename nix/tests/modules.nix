# Evaluates both modules with nixpkgs' `lib` alone: the few options of NixOS and home-manager they
# touch are declared here as stubs, so no NixOS or home-manager evaluation is needed. Returns the
# expectations that failed (empty: all hold). `nix flake check` runs it with the real pkgs; the
# local run with a fetched nixpkgs lib and the harness pkgs is described in CONTRIBUTING.md.
{ lib, pkgs }:
let
  inherit (lib) mkOption types;
  anything = mkOption {
    type = types.anything;
    default = null;
  };
  raw = mkOption {
    type = types.lazyAttrsOf types.raw;
    default = { };
  };
  files = mkOption {
    type = types.attrsOf (types.submodule { options.source = mkOption { type = types.raw; }; });
    default = { };
  };
  common = {
    options.assertions = mkOption {
      type = types.listOf types.attrs;
      default = [ ];
    };
    config._module.args.pkgs = pkgs;
  };
  package = derivation {
    name = "nixshed-stand-in";
    # `or`: the harness pkgs have no stdenv; pure evaluation (flake check) has no currentSystem.
    system = pkgs.stdenv.hostPlatform.system or builtins.currentSystem;
    builder = "/bin/sh";
  } // { meta.mainProgram = "nixshed"; };
  sandbox = {
    interpreter = "bash";
    memoryMb = 128;
  };

  nixos = extra: (lib.evalModules {
    modules = [
      ../modules/nixos.nix
      common
      {
        options.boot.kernelPackages = anything;
        options.nixpkgs.flake.source = mkOption { type = types.nullOr types.str; default = null; };
        options.environment.systemPackages = mkOption { type = types.listOf types.package; default = [ ]; };
        options.environment.etc = files;
        options.security = {
          allowUserNamespaces = mkOption { type = types.bool; default = true; };
          unprivilegedUsernsClone = mkOption { type = types.bool; default = false; };
        };
        config.programs.nixshed = {
          enable = true;
          inherit package;
          settings.fs.read_only = true;
          sandboxes.data = sandbox;
        };
      }
      extra
    ];
  }).config;

  # A home-manager with programs.mcp and the given options of client modules (their paths).
  home =
    {
      clients,
      present,
      extraModules ? [ ],
    }:
    (lib.evalModules {
      modules = extraModules ++ [
        ../modules/home-manager.nix
        common
        {
          options = lib.foldl' lib.recursiveUpdate {
            home.packages = mkOption { type = types.listOf types.package; default = [ ]; };
            xdg.configFile = files;
          } (map (path: lib.setAttrByPath path (if lib.last path == "servers" || lib.last path == "mcpServers" then raw else anything)) (sharedList ++ present));
          config.programs.nixshed = {
            enable = true;
            inherit package;
            mcp.clients = clients;
            sandboxes.mine = sandbox;
          };
        }
      ];
    }).config;
  vscodeProfiles.options.programs.vscode.profiles = mkOption {
    type = types.attrsOf (types.submodule { options.enableMcpIntegration = anything; });
    default = { };
  };
  # home-manager's shared MCP server list, which every scenario has.
  sharedList = [
    [ "programs" "mcp" "enable" ]
    [ "programs" "mcp" "servers" ]
  ];
  # The package recipe the modules' default is, with a stand-in daemon: prerealise reaches the
  # metadata, each package with the permissions the settings give it (capped as the daemon caps them).
  prerealised =
    let
      server = import ../package/server.nix {
        inherit pkgs;
        nixpkgs = pkgs.path;
        prerealise = [ "jq" ];
        nixpkgsSettings = {
          project_access = "rw";
          permissions.jq.network = true;
        };
        sandboxSettings.project_access = "ro";
        daemon = package // { version = "0"; };
        environments = [ ];
      };
    in
    (builtins.fromJSON (builtins.unsafeDiscardStringContext server.metadata.realisedJson)).packages;

  failedAssertions = config: map (a: a.message) (lib.filter (a: !a.assertion) config.assertions);

  system = nixos { };
  hardened = nixos { boot.kernelPackages.kernel.isHardened = true; };
  fromFlake = nixos { nixpkgs.flake.source = "/nix/store/00000000000000000000000000000000-source"; };
  noUserns = nixos { security.allowUserNamespaces = false; };
  current = home {
    clients = [ "claude-code" ];
    present = [
      [ "programs" "claude-code" "enableMcpIntegration" ]
      [ "programs" "codex" "enableMcpIntegration" ]
    ];
  };
  currentWithVscode = home {
    clients = [ "vscode" ];
    present = [ ];
    extraModules = [ vscodeProfiles ];
  };
  release2511 = home {
    clients = [ "claude-code" ];
    present = [
      [ "programs" "claude-code" "mcpServers" ]
    ];
  };
  missingClient = home {
    clients = [ "zed-editor" ];
    present = [ ];
  };

  expectations = {
    "nixos: config.toml in /etc" = system.environment.etc ? "nixshed/config.toml";
    "nixos: sandbox linked under /etc/nixshed/sandboxes" =
      system.environment.etc."nixshed/sandboxes/data".source.metadata.name == "data";
    "nixos: sandbox arguments reach mkSandbox" =
      system.environment.etc."nixshed/sandboxes/data".source.metadata.limits.memoryMb == 128;
    "nixos: package installed" = lib.elem package system.environment.systemPackages;
    "nixos: prerealise is an option of the module" = system.programs.nixshed.prerealise == [ ];
    "package: prerealised packages recorded in the metadata with their permissions" =
      map (p: { inherit (p) attr network projectAccess; }) prerealised == [ { attr = "jq"; network = true; projectAccess = "ro"; } ];
    "nixos: a stock kernel is left alone (it has no unprivileged_userns_clone switch)" = !system.security.unprivilegedUsernsClone;
    "nixos: a hardened kernel gets unprivileged user namespaces back" = hardened.security.unprivilegedUsernsClone;
    "nixos: a flake-built system serves its flake's nixpkgs source" =
      fromFlake.programs.nixshed.nixpkgs == "/nix/store/00000000000000000000000000000000-source";
    "nixos: otherwise pkgs.path" = system.programs.nixshed.nixpkgs == pkgs.path;
    "nixos: no assertion fails" = failedAssertions system == [ ];
    "nixos: user namespaces off is refused" = lib.length (failedAssertions noUserns) == 1;
    "home: server registered in programs.mcp" =
      current.programs.mcp.servers.nixshed == { command = "${package}/bin/nixshed"; args = [ "serve" ]; };
    "home: chosen client integrated" = current.programs.claude-code.enableMcpIntegration == true;
    "home: other clients untouched" = current.programs.codex.enableMcpIntegration == null;
    "home: user sandbox under XDG_CONFIG_HOME" = current.xdg.configFile."nixshed/sandboxes/mine".source.metadata.name == "mine";
    "home: no assertion fails" = failedAssertions current == [ ];
    "home: vscode's default profile integrated" =
      currentWithVscode.programs.vscode.profiles.default.enableMcpIntegration == true;
    "home 25.11: claude-code gets the server directly" = release2511.programs.claude-code.mcpServers.nixshed.type == "stdio";
    "home 25.11: no assertion fails" = failedAssertions release2511 == [ ];
    "home: a client without an option is an assertion" = lib.length (failedAssertions missingClient) == 1;
  };
in
lib.attrNames (lib.filterAttrs (_: holds: !holds) expectations)
