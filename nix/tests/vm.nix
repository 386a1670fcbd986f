# NixOS VM test: a machine with the NixOS module, a custom sandbox, a prebuilt index of a small
# nixpkgs, and a normal user whose MCP client (mcp-client.mjs, the SDK's Client) drives `nixshed
# serve` through initialize, tools/list, every preset, a session, isolation, fs confinement, search,
# the custom sandbox, nixpkgs_execute and install_tool (realised inside the VM from the small
# nixpkgs, offline) with list_changed, and a memory limit. The user is not root: limits go through
# the user's systemd manager (systemd-run --user --scope), the path unprivileged users take.
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
    { pkgs, lib, ... }:
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
      users.users.alice = {
        isNormalUser = true;
        # A user manager from boot, as a desktop session would have: bin/run's systemd-run --user path.
        linger = true;
      };
      # nixpkgs_execute wraps packages with mkEnvironment and builds that in the VM, offline: what
      # those builds need (the packages, runCommand's stdenv, closureInfo's tools) is in the store.
      nix.settings.substituters = lib.mkForce [ ];
      system.extraDependencies = with pkgs; [
        hello
        jq
        ripgrep
        stdenv
        stdenvNoCC
        bubblewrap
        coreutils
        bash
        cacert
        buildPackages.coreutils
        buildPackages.jq
      ];
    };

  testScript =
    { nodes, ... }:
    let
      nixshed = nodes.machine.programs.nixshed.package;
      dataJson = pkgs.writeText "data.json" (builtins.toJSON { answer = 42; });
      client = pkgs.writeShellScript "mcp-client" ''
        exec ${pkgs.nodejs}/bin/node ${./mcp-client.mjs} \
          ${nixshed.daemon}/lib/nixshed/node_modules/@modelcontextprotocol/sdk \
          -- ${nixshed}/bin/nixshed serve
      '';
    in
    ''
      machine.wait_for_unit("multi-user.target")
      machine.wait_for_unit("user@1000.service")
      machine.succeed(
          "su - alice -c 'mkdir -p project && echo nixshed vm test > project/README.md && echo top secret > secret.txt && chmod 600 secret.txt'",
          "su - alice -c 'cp ${dataJson} project/data.json && chmod u+w project/data.json'",
      )
      # A listener outside the jail: reaching it from inside would mean the network is shared.
      machine.succeed("systemd-run --unit=listener ${pkgs.python3.interpreter} -m http.server --bind 127.0.0.1 8000")
      machine.wait_for_open_port(8000)
      as_alice = "su - alice -c 'export XDG_RUNTIME_DIR=/run/user/1000 DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus; {}'"
      with subtest("nixshed doctor"):
          doctor = machine.execute(as_alice.format("nixshed doctor") + " 2>&1")[1]
          print(doctor)
          assert "cgroup v2 through systemd-run" in doctor, "a normal user's limits go through the user's systemd scope"
      with subtest("MCP scenario"):
          print(machine.succeed(as_alice.format("cd project && ${client}") + " 2>&1"))
      machine.fail("test -e /home/alice/escape.txt")
    '';
}
