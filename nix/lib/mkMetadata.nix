# mkMetadata: the one store path the daemon reads at startup (`nixshed serve --metadata PATH`).
#
#   mkMetadata { pkgs, environments, nixpkgsIndex ? null, nixpkgs ? null }
#
# environments: artifacts of mkEnvironment/mkSandbox (a list, or an attribute set as fromToml returns).
# The result holds environments.json ({schemaVersion, environments: {<name>: {artifact, metadata}}}),
# lib (nixshed's own Nix source, for wrapping packages with mkEnvironment at run time) and, when given,
# nixpkgs.json (the pinned nixpkgs source) and nixpkgs-index (the prebuilt search index).
{
  pkgs,
  environments,
  nixpkgsIndex ? null,
  nixpkgs ? null,
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
      passAsFile = [ "environmentsJson" "nixpkgsJson" ];
    }
    ''
      mkdir "$out"
      cp "$environmentsJsonPath" "$out/environments.json"
      ln -s ${source}/nix/lib "$out/lib"
      ${if nixpkgs == null then "" else ''cp "$nixpkgsJsonPath" "$out/nixpkgs.json"''}
      ${if nixpkgsIndex == null then "" else ''ln -s ${nixpkgsIndex} "$out/nixpkgs-index"''}
    ''
