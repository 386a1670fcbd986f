# fromToml pkgs ./nixshed.toml: builds every environment declared in its [environments.<name>]
# tables, the keys config.example.toml documents:
#
#   [environments.data]
#   preset = "python"            # shell | python | node
#   description = "…"
#   packages = ["sqlite", "python3Packages.pandas"]   # nixpkgs attribute paths
#   timeout_seconds = 60         # memory_mb, max_processes, workspace_mb, network, project_access
#   network = ["example.org"]       # false, true or destinations reached through the egress proxy
#
# Returns { <name> = artifact; }. Other tables of the file are ignored; a wrong key is an error.
pkgs: file:
let
  presets = import ../environments;
  declared = (builtins.fromTOML (builtins.readFile file)).environments or { };
  renamed = {
    description = "description";
    timeout_seconds = "timeoutSeconds";
    memory_mb = "memoryMb";
    max_processes = "maxProcesses";
    workspace_mb = "workspaceMb";
    network = "network";
    project_access = "projectAccess";
  };
  where = name: "nixshed.lib.fromToml ${toString file}: [environments.${name}]";
  package =
    name: attrPath:
    builtins.foldl' (
      set: key: if builtins.isAttrs set && set ? ${key} then set.${key} else throw "${where name}: no package `${attrPath}` in nixpkgs"
    ) pkgs (builtins.filter builtins.isString (builtins.split "\\." attrPath));
  build =
    name: table:
    let
      unknown = builtins.attrNames (removeAttrs table ([ "preset" "packages" ] ++ builtins.attrNames renamed));
      preset = table.preset or (throw "${where name}: `preset` is required (one of ${builtins.concatStringsSep ", " (builtins.attrNames presets)})");
    in
    if unknown != [ ] then
      throw "${where name}: unknown key(s) ${builtins.concatStringsSep ", " unknown}; valid: preset, packages, ${builtins.concatStringsSep ", " (builtins.attrNames renamed)}"
    else if !(presets ? ${preset}) then
      throw "${where name}: preset must be one of ${builtins.concatStringsSep ", " (builtins.attrNames presets)}, not \"${preset}\""
    else
      presets.${preset} (
        { inherit pkgs name; packages = map (package name) (table.packages or [ ]); }
        // builtins.listToAttrs (
          map (key: { name = renamed.${key}; value = table.${key}; }) (builtins.filter (key: table ? ${key}) (builtins.attrNames renamed))
        )
      );
in
builtins.mapAttrs build declared
