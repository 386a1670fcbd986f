# The parts of the repository the packages (and mkMetadata's `lib`) are built from, so that editing
# tests or docs rebuilds nothing. Plain builtins (no lib.fileset): the offline test harness
# evaluates this too.
let
  root = toString ../..;
  # Keeps exactly the listed files and everything under the listed directories.
  select =
    name: paths:
    builtins.path {
      inherit name;
      path = ../..;
      filter =
        path: type:
        let
          relative = builtins.substring (builtins.stringLength root + 1) (-1) path;
          isListedOrInside = p: relative == p || builtins.substring 0 (builtins.stringLength p + 1) relative == "${p}/";
          isParentOfListed = p: type == "directory" && builtins.substring 0 (builtins.stringLength relative + 1) p == "${relative}/";
        in
        builtins.any (p: isListedOrInside p || isParentOfListed p) paths;
    };
  manifests = [
    "package.json"
    "package-lock.json"
    "daemon/package.json"
  ];
in
{
  # What npm needs to install the dependencies: the fixed-output derivation sees nothing else.
  npmManifests = select "nixshed-npm-manifests" manifests;
  daemon = select "nixshed-daemon-source" (
    manifests
    ++ [
      "daemon/tsconfig.json"
      "daemon/src"
      # `nixshed config --example` prints it.
      "config.example.toml"
    ]
  );
  # What lib.mkMetadata ships as `lib` for run time: the Nix library and the session kernels.
  library = select "nixshed-source" [
    "nix"
    "agent"
  ];
}
