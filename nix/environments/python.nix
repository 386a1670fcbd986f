# The python preset: Python 3 with a few everyday libraries.
import ./preset.nix {
  name = "python";
  description = "Python 3 with requests, pyyaml and numpy";
  interpreter = "python";
  packagesOf = pkgs: [ (pkgs.python3.withPackages (ps: with ps; [ requests pyyaml numpy ])) ];
}
