# The daemon package for a given nixpkgs: `import ./nix/package pkgs`. Its npm dependencies stay
# reachable as `.npmDeps` (the fixed-output derivation whose hash lives in npm-deps.hash).
pkgs:
let
  source = import ./source.nix;
in
pkgs.callPackage ./daemon.nix {
  src = source.daemon;
  npmDeps = pkgs.callPackage ./npm-deps.nix { src = source.npmManifests; };
}
