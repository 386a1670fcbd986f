# nixshed's Nix library, the flake's `lib`: pure functions that take `pkgs` as an argument, so they
# work with any nixpkgs (and with the offline stand-in in tests/harness).
{
  mkEnvironment = import ./mkEnvironment.nix;
  mkSandbox = import ./mkSandbox.nix;
  fromToml = import ./fromToml.nix;
  mkMetadata = import ./mkMetadata.nix;
  mkNixpkgsIndex = import ./mkNixpkgsIndex.nix;
  # The presets by name (shell, python, node), each taking mkEnvironment's arguments.
  environments = import ../environments;
}
