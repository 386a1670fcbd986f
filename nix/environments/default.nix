# The presets by name: each a function of mkEnvironment's arguments (at least `pkgs`).
{
  shell = import ./shell.nix;
  python = import ./python.nix;
  node = import ./node.nix;
}
