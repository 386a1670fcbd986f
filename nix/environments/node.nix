# The node preset: Node.js (code runs as a .js file: CommonJS, or ES module syntax when used).
# Takes mkEnvironment's arguments; `packages` are added to the preset's own.
{ pkgs, packages ? [ ], ... }@args:
import ../lib/mkEnvironment.nix (
  {
    name = "node";
    description = "Node.js";
    interpreter = "node";
  }
  // args
  // {
    packages = [ pkgs.nodejs ] ++ packages;
  }
)
