# The shell preset: bash with the everyday command-line tools. Takes mkEnvironment's arguments;
# `packages` are added to the preset's own.
{ pkgs, packages ? [ ], ... }@args:
import ../lib/mkEnvironment.nix (
  {
    name = "shell";
    description = "bash with coreutils, findutils, grep, sed, awk, jq, diff, file and tree";
    interpreter = "bash";
  }
  // args
  // {
    packages = with pkgs; [ bash coreutils findutils gnugrep gnused gawk jq diffutils file tree ] ++ packages;
  }
)
