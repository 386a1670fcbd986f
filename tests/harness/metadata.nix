# The metadata the tests serve: the three presets (and, with testEnvironments, a small python
# environment with tight limits and read-write project access), built by the flake's own lib with
# the host-backed stand-in for nixpkgs.
{ flake, hostVersions ? { }, testEnvironments ? false }:
let
  nixshed = builtins.getFlake flake;
  pkgs = import ./pkgs.nix { inherit hostVersions; };
  mounts = pkgs.hostMounts;
  presets = map (preset: nixshed.lib.environments.${preset} { inherit pkgs mounts; }) [ "shell" "python" "node" ];
  tight = nixshed.lib.mkSandbox {
    inherit pkgs mounts;
    name = "tight";
    description = "Python 3 with tight limits and read-write project access (tests only)";
    interpreter = "python";
    packages = [ pkgs.coreutils ];
    projectAccess = "rw";
    memoryMb = 128;
    maxProcesses = 32;
    workspaceMb = 16;
    timeoutSeconds = 10;
  };
in
nixshed.lib.mkMetadata {
  inherit pkgs;
  environments = presets ++ (if testEnvironments then [ tight ] else [ ]);
}
