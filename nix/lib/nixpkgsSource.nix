# A nixpkgs source as mkMetadata and mkNixpkgsIndex use it, without copying it into the store again on
# every evaluation: a flake input (an attribute set) or a string is taken as it is; a path value
# (`pkgs.path`, a NixOS module's option) is added under the name flakes give their inputs, "source",
# which is the store path it already has when it came from a flake (so nothing is copied), and the
# same path on every later evaluation otherwise. Interpolating the path itself ("${pkgs.path}") would
# add a second copy named after the first.
nixpkgs:
if builtins.isAttrs nixpkgs then
  nixpkgs.outPath
else if builtins.isPath nixpkgs then
  builtins.path {
    path = nixpkgs;
    name = "source";
  }
else
  nixpkgs
