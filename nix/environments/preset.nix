# A preset from its defaults: a function of mkEnvironment's arguments (at least `pkgs`) in which the
# caller's arguments win, except `packages`, which are added to the preset's own.
{
  name,
  description,
  interpreter,
  # pkgs -> the preset's own packages
  packagesOf,
}:
{ pkgs, packages ? [ ], ... }@args:
import ../lib/mkEnvironment.nix (
  { inherit name description interpreter; }
  // args
  // {
    packages = packagesOf pkgs ++ packages;
  }
)
