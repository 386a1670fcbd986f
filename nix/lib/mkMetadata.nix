# mkMetadata: the one store path the daemon reads at startup (`nixshed serve --metadata PATH`).
#
#   mkMetadata { pkgs, environments, nixpkgsIndex ? null, nixpkgs ? null, realised ? [ ] }
#
# realised: packages of `nixpkgs` built ahead, each { attr, package, network ? false, projectAccess ?
# "ro", mounts ? [ ] }; each is wrapped the way the daemon's nixpkgs_execute wraps it (mkEnvironment, interpreter
# bash) and recorded in nixpkgs-realised.json, so that running it starts at once.
# environments: artifacts of mkEnvironment/mkSandbox (a list, or an attribute set as fromToml returns).
# The result holds environments.json ({schemaVersion, environments: {<name>: {artifact, metadata}}}),
# lib (nixshed's own Nix source, for wrapping packages with mkEnvironment at run time) and, when given,
# nixpkgs.json (the pinned nixpkgs source) and nixpkgs-index (the prebuilt search index).
{
  pkgs,
  environments,
  nixpkgsIndex ? null,
  nixpkgs ? null,
  realised ? [ ],
}:
let
  artifacts = if builtins.isAttrs environments && !(environments ? outPath) then builtins.attrValues environments else environments;
  entry =
    artifact:
    if artifact ? metadata then
      { name = artifact.metadata.name; value = { artifact = "${artifact}"; inherit (artifact) metadata; }; }
    else
      throw "nixshed.lib.mkMetadata: every environment must come from mkEnvironment or mkSandbox";
  entries = map entry artifacts;
  names = map (e: e.name) entries;
  duplicates = builtins.filter (n: builtins.length (builtins.filter (m: m == n) names) > 1) names;
  source = (import ../package/source.nix).library;
  pinned = if nixpkgs == null then null else import ./nixpkgsSource.nix nixpkgs;
  # The daemon's environment name for an attribute: pkg-<attr>, lower case, [a-z0-9_-] only.
  upper = [ "A" "B" "C" "D" "E" "F" "G" "H" "I" "J" "K" "L" "M" "N" "O" "P" "Q" "R" "S" "T" "U" "V" "W" "X" "Y" "Z" "." "'" "+" ];
  lower = [ "a" "b" "c" "d" "e" "f" "g" "h" "i" "j" "k" "l" "m" "n" "o" "p" "q" "r" "s" "t" "u" "v" "w" "x" "y" "z" "-" "-" "-" ];
  environmentName = attr: builtins.substring 0 60 "pkg-${builtins.replaceStrings upper lower attr}";
  realisedEntry =
    {
      attr,
      package,
      network ? false,
      projectAccess ? "ro",
      mounts ? [ ],
    }:
    let
      environment = import ./mkEnvironment.nix {
        inherit pkgs network projectAccess mounts;
        name = environmentName attr;
        description = "nixpkgs ${attr}";
        interpreter = "bash";
        packages = [ package ];
      };
    in
    {
      inherit attr network projectAccess mounts;
      artifact = "${environment}";
      bin = "${package.bin or package.out or package}/bin";
      mainProgram = package.meta.mainProgram or null;
      pname = package.pname or (builtins.parseDrvName package.name).name;
    };
in
if !builtins.isList artifacts then
  throw "nixshed.lib.mkMetadata: environments must be a list or an attribute set of artifacts"
else if duplicates != [ ] then
  throw "nixshed.lib.mkMetadata: two environments are named ${builtins.head duplicates}"
else
  pkgs.runCommand "nixshed-metadata"
    {
      environmentsJson = builtins.toJSON { schemaVersion = 1; environments = builtins.listToAttrs entries; };
      nixpkgsJson = builtins.toJSON { source = pinned; rev = if nixpkgs == null then null else nixpkgs.rev or null; };
      realisedJson = builtins.toJSON { schemaVersion = 1; packages = map realisedEntry realised; };
      passAsFile = [ "environmentsJson" "nixpkgsJson" "realisedJson" ];
    }
    ''
      mkdir "$out"
      cp "$environmentsJsonPath" "$out/environments.json"
      ln -s ${source}/nix/lib "$out/lib"
      ${if nixpkgs == null then "" else ''cp "$nixpkgsJsonPath" "$out/nixpkgs.json"''}
      ${if nixpkgsIndex == null then "" else ''ln -s ${nixpkgsIndex} "$out/nixpkgs-index"''}
      ${if realised == [ ] then "" else ''cp "$realisedJsonPath" "$out/nixpkgs-realised.json"''}
    ''
