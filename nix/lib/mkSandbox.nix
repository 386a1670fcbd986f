# mkSandbox: the entry point for custom sandboxes in your own flake.
#
#   nixshed.lib.mkSandbox { pkgs; name = "data"; interpreter = "python";
#                           packages = [ (pkgs.python3.withPackages (ps: [ ps.pandas ])) ]; }
#
# Same arguments as mkEnvironment, checked strictly: an unknown argument is an error that lists the
# valid ones (a misspelt `memoryMB` must not silently fall back to the default).
args:
let
  known = [ "pkgs" "name" "description" "interpreter" "packages" "timeoutSeconds" "memoryMb" "maxProcesses" "workspaceMb" "network" "projectAccess" "mounts" "env" ];
  unknown = builtins.filter (arg: !(builtins.elem arg known)) (builtins.attrNames args);
  missing = builtins.filter (arg: !(args ? ${arg})) [ "pkgs" "name" "interpreter" ];
in
if !builtins.isAttrs args then
  throw "nixshed.lib.mkSandbox: expected an attribute set of arguments"
else if unknown != [ ] then
  throw "nixshed.lib.mkSandbox ${args.name or ""}: unknown argument(s) ${builtins.concatStringsSep ", " unknown}; valid: ${builtins.concatStringsSep ", " known}"
else if missing != [ ] then
  throw "nixshed.lib.mkSandbox ${args.name or ""}: missing ${builtins.concatStringsSep ", " missing}"
else
  import ./mkEnvironment.nix args
