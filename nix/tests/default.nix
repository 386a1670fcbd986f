# The flake's checks beyond the packages: the module evaluations (modules.nix) and the VM test.
{ pkgs }:
let
  failed = import ./modules.nix {
    inherit pkgs;
    inherit (pkgs) lib;
  };
in
{
  modules =
    if failed == [ ] then
      pkgs.runCommand "nixshed-modules-eval" { } "touch $out"
    else
      throw "nixshed module expectations failed: ${builtins.concatStringsSep "; " failed}";
  vm = import ./vm.nix { inherit pkgs; };
}
