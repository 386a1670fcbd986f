{
  description = "nixshed: a Nix-flake-first MCP server for nixpkgs, jailed sandboxes and project-aware tools";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-25.11";

  outputs =
    { self, nixpkgs }:
    {
      # Pure functions of `pkgs`: usable with any nixpkgs, and evaluated offline by the test harness.
      lib = import ./nix/lib;
    };
}
