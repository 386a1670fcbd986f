# The node preset: Node.js (code runs as a .js file: CommonJS, or ES module syntax when used).
import ./preset.nix {
  name = "node";
  description = "Node.js";
  interpreter = "node";
  packagesOf = pkgs: [ pkgs.nodejs ];
}
