# The python preset: Python 3 with a few everyday libraries. Takes mkEnvironment's arguments;
# `packages` are added to the preset's own.
{ pkgs, packages ? [ ], ... }@args:
import ../lib/mkEnvironment.nix (
  {
    name = "python";
    description = "Python 3 with requests, pyyaml and numpy";
    interpreter = "python";
  }
  // args
  // {
    packages = [ (pkgs.python3.withPackages (ps: with ps; [ requests pyyaml numpy ])) ] ++ packages;
  }
)
