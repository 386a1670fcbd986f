# mkEnvironment: builds an environment artifact, the unit nixshed serves.
#
#   mkEnvironment {
#     pkgs, name, description ? "", interpreter,   # "bash" | "python" | "node"
#     packages ? [ ], timeoutSeconds ? 30, memoryMb ? 512, maxProcesses ? 256, workspaceMb ? 256,
#     network ? false,  # true, false, or destinations: [ "example.org" "*.example.net" "127.0.0.1:5432" ]
#     projectAccess ? "ro",                         # "none" | "ro" | "rw"
#     mounts ? [ ],   # "/host/path" (read-only) or { source; target ? source; writable ? false; optional ? false; }
#     env ? { },      # variables set inside the jail
#   }
#
# The result holds metadata.json (what the daemon reads), bin/run (one-off jailed execution: code on
# stdin, or `bin/run -- PROGRAM ARGS…`) and bin/session-run (the interpreter's session kernel from
# agent/ in the same jail). The jail itself is ../backends/bubblewrap.nix. The artifact knows no
# project: the daemon names one per call (NIXSHED_JAIL_* variables).
{
  pkgs,
  name,
  description ? "",
  interpreter,
  packages ? [ ],
  timeoutSeconds ? 30,
  memoryMb ? 512,
  maxProcesses ? 256,
  workspaceMb ? 256,
  network ? false,
  projectAccess ? "ro",
  mounts ? [ ],
  env ? { },
}@args:
let
  settings = import ./validate.nix args;
  interpreterPackage = {
    bash = pkgs.bash;
    python = pkgs.python3;
    node = pkgs.nodejs;
  }.${interpreter};
  metadata = {
    schemaVersion = 1;
    inherit name description interpreter projectAccess;
    inherit (settings) network;
    packages = map (p: { name = pkgs.lib.getName p; version = pkgs.lib.getVersion p; }) packages;
    limits = { inherit timeoutSeconds memoryMb maxProcesses workspaceMb; };
  };
  jail = import ../backends/bubblewrap.nix {
    inherit pkgs name interpreter projectAccess env;
    inherit (settings) mounts network;
    inherit memoryMb maxProcesses workspaceMb;
    # Earlier packages win on PATH, so a python3.withPackages in `packages` shadows the bare python3.
    packages = packages ++ [ interpreterPackage pkgs.bash pkgs.coreutils ];
  };
  artifact = pkgs.runCommand "nixshed-env-${name}"
  {
    metadataJson = builtins.toJSON metadata;
    passAsFile = [ "metadataJson" ];
    passthru = { inherit metadata; };
  }
  ''
    mkdir -p "$out/bin"
    cp "$metadataJsonPath" "$out/metadata.json"
    cp ${jail}/bin/run ${jail}/bin/session-run "$out/bin/"
  '';
in
# Validation first, so a wrong argument fails before anything is built.
builtins.seq settings artifact
