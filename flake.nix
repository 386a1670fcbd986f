{
  description = "nixshed: a Nix-flake-first MCP server for nixpkgs, jailed sandboxes and project-aware tools";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-25.11";

  outputs =
    { self, nixpkgs }:
    let
      linux = [
        "x86_64-linux"
        "aarch64-linux"
      ];
      # No bubblewrap on darwin: there the daemon serves fs, pkg-local and nixpkgs search, no sandboxes.
      darwin = [
        "x86_64-darwin"
        "aarch64-darwin"
      ];
      # Builtins only, so the names of the outputs are known without fetching nixpkgs: the offline
      # harness evaluates `lib`, and `nix eval .#lib` looks into `packages.<system>` first.
      forEach =
        systems: f:
        builtins.listToAttrs (
          map (system: {
            name = system;
            value = f system nixpkgs.legacyPackages.${system};
          }) systems
        );
      presetsFor = pkgs: builtins.mapAttrs (_: preset: preset { inherit pkgs; }) self.lib.environments;
    in
    {
      # Pure functions of `pkgs`: usable with any nixpkgs, and evaluated offline by the test harness.
      lib = import ./nix/lib;

      # nixshed built against your own nixpkgs: its presets, and that nixpkgs to search and run from.
      overlays.default = final: _prev: {
        nixshed = import ./nix/package/server.nix {
          pkgs = final;
          nixpkgs = final.path;
        };
        nixshed-daemon = import ./nix/package final;
      };

      packages = forEach (linux ++ darwin) (
        system: pkgs:
        let
          daemon = import ./nix/package pkgs;
        in
        {
          inherit daemon;
          # The server with the presets and the pinned nixpkgs; its search index is built on the first
          # search (nixpkgs-index below, or the modules' prebuildIndex, builds it ahead).
          default = import ./nix/package/server.nix { inherit pkgs nixpkgs daemon; };
          nixpkgs-index = self.lib.mkNixpkgsIndex { inherit pkgs nixpkgs daemon; };
        }
        // (if builtins.elem system linux then presetsFor pkgs else { })
      );

      apps = forEach (linux ++ darwin) (
        system: _pkgs: {
          default = {
            type = "app";
            program = "${self.packages.${system}.default}/bin/nixshed";
            meta.description = "The nixshed MCP server over stdio";
          };
        }
      );

      nixosModules.default = import ./nix/modules/nixos.nix;
      homeModules.default = import ./nix/modules/home-manager.nix;
      # The name home-manager's documentation used before homeModules.
      homeManagerModules = self.homeModules;

      # `nix flake check`: the packages, the module evaluations and the NixOS VM tests.
      checks = forEach linux (
        system: pkgs:
        import ./nix/tests { inherit pkgs; }
        // {
          inherit (self.packages.${system}) daemon shell python node;
        }
      );

      devShells = forEach (linux ++ darwin) (
        system: pkgs: {
          default = pkgs.mkShell {
            packages = [
              pkgs.nodejs
              pkgs.ripgrep
              pkgs.nixfmt-tree
              pkgs.nil
            ]
            ++ (if builtins.elem system linux then [ pkgs.bubblewrap ] else [ ]);
          };
        }
      );

      formatter = forEach (linux ++ darwin) (_system: pkgs: pkgs.nixfmt-tree);
    };
}
