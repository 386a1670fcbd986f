# The real nix/package/ built with this machine's tools: `nix build -f tests/harness/packaging.nix`
# gives the daemon, `-f … npmDeps` its fixed-output npm dependencies.
import ../../nix/package (import ./packaging-pkgs.nix { })
