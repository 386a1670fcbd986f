# NixOS VM test: a machine with the NixOS module, a custom sandbox, a prebuilt index of a small
# nixpkgs, and a user whose MCP client (mcp-client.mjs, the SDK's Client) drives `nixshed serve`
# through initialize, tools/list, every preset, a session, isolation, fs confinement, search, the
# custom sandbox and install_tool with list_changed.
{ pkgs }:
let
  # What nixpkgs_search indexes and nixpkgs_execute would realise from: three real packages of this
  # nixpkgs, so the index builds in seconds instead of evaluating all of nixpkgs.
  smallNixpkgs = pkgs.writeTextDir "default.nix" ''
    { ... }:
    let
      real = import ${pkgs.path} { system = "${pkgs.stdenv.hostPlatform.system}"; };
    in
    {
      inherit (real) hello jq ripgrep;
    }
  '';
in
pkgs.testers.runNixOSTest {
  name = "nixshed";

  nodes.machine =
    { pkgs, ... }:
    {
      imports = [ ../modules/nixos.nix ];
      virtualisation.memorySize = 2048;
      programs.nixshed = {
        enable = true;
        nixpkgs = smallNixpkgs;
        prebuildIndex = true;
        settings.sandbox.max_timeout_seconds = 120;
        sandboxes.custom = {
          interpreter = "bash";
          description = "bash with GNU hello";
          packages = [ pkgs.hello ];
        };
      };
      users.users.alice.isNormalUser = true;
    };

  testScript =
    { nodes, ... }:
    let
      nixshed = nodes.machine.programs.nixshed.package;
      client = pkgs.writeShellScript "mcp-client" ''
        exec ${pkgs.nodejs}/bin/node ${./mcp-client.mjs} \
          ${nixshed.daemon}/lib/nixshed/node_modules/@modelcontextprotocol/sdk \
          -- ${nixshed}/bin/nixshed serve
      '';
    in
    ''
      machine.wait_for_unit("multi-user.target")
      machine.succeed(
          "su - alice -c 'mkdir -p project && echo nixshed vm test > project/README.md && echo top secret > secret.txt && chmod 600 secret.txt'"
      )
      # A listener outside the jail: reaching it from inside would mean the network is shared.
      machine.succeed("systemd-run --unit=listener ${pkgs.python3.interpreter} -m http.server --bind 127.0.0.1 8000")
      machine.wait_for_open_port(8000)
      with subtest("nixshed doctor"):
          print(machine.execute("su - alice -c 'nixshed doctor' 2>&1")[1])
      with subtest("MCP scenario"):
          print(machine.succeed("su - alice -c 'cd project && ${client}' 2>&1"))
      machine.fail("test -e /home/alice/escape.txt")
    '';
}
