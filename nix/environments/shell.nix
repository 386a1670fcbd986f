# The shell preset: bash with the everyday command-line tools.
import ./preset.nix {
  name = "shell";
  description = "bash with coreutils, findutils, grep, sed, awk, jq, diff, file and tree";
  interpreter = "bash";
  packagesOf = pkgs: with pkgs; [ bash coreutils findutils gnugrep gnused gawk jq diffutils file tree ];
}
