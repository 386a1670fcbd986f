# The checks every environment passes before anything is built (used by mkEnvironment; mkSandbox
# adds its own on top). A wrong argument is a `throw` naming the environment, the argument and what
# is allowed. Returns the arguments normalised (mounts as attribute sets, an empty network list as
# false).
args:
let
  where = "nixshed: environment ${builtins.toJSON (args.name or "?")}";
  fail = message: throw "${where}: ${message}";
  check = cond: message: if cond then true else fail message;
  oneOf = arg: allowed: value:
    check (builtins.elem value allowed) "${arg} must be one of ${builtins.concatStringsSep ", " (map builtins.toJSON allowed)}, not ${builtins.toJSON value}";
  positiveInt = arg: value: check (builtins.isInt value && value > 0) "${arg} must be a positive integer, not ${builtins.toJSON value}";
  normaliseMount =
    mount:
    if builtins.isString mount then
      { source = mount; target = mount; writable = false; optional = false; }
    else if builtins.isAttrs mount && mount ? source then
      let
        unknown = builtins.attrNames (removeAttrs mount [ "source" "target" "writable" "optional" ]);
      in
      if unknown != [ ] then fail "mount ${toString mount.source} has unknown keys: ${builtins.concatStringsSep ", " unknown} (allowed: source, target, writable, optional)"
      # toString: a path literal (`source = /etc;`) must meet the string checks below, not slip past them.
      else { writable = false; optional = false; } // mount // { source = toString mount.source; target = toString (mount.target or mount.source); }
    else
      fail "each of mounts must be a path string or { source; target ? source; writable ? false; optional ? false; }";
  mounts = map normaliseMount (args.mounts or [ ]);
  # network: true, false, or destinations reached through the daemon's egress proxy. The daemon
  # parses each entry again (daemon/src/config/destinations.ts); this catches typos early.
  network = args.network or false;
  destinationForms = [
    "(\\*\\.)?[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\\.?(:[0-9]{1,5})?" # name, *.domain, IPv4
    "\\[[0-9A-Fa-f:.]+](:[0-9]{1,5})?" # [IPv6]:port
    "[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*" # bare IPv6
  ];
  isDestination = d: builtins.isString d && builtins.any (form: builtins.match form d != null) destinationForms;
  networkCheck =
    if builtins.isBool network then true
    else if !builtins.isList network then fail "network must be true, false or a list of destinations, not ${builtins.toJSON network}"
    else
      let wrong = builtins.filter (d: !isDestination d) network;
      in check (wrong == [ ]) "network: ${builtins.toJSON (builtins.head wrong)} is not a destination: write a host name, \"*.\" and a domain, or an IP address, each with an optional :port (e.g. \"example.org\", \"*.example.net\", \"api.example.com:8443\", \"127.0.0.1:5432\")";
  absolute = m: check (builtins.substring 0 1 m.source == "/" && builtins.substring 0 1 m.target == "/") "mount ${m.source} -> ${m.target}: both must be absolute paths";
  reserved = m: check (!(builtins.elem m.target [ "/" "/nix" "/nix/store" "/proc" "/dev" "/workspace" "/tmp" "/project" "/etc" "/run" "/run/nixshed" ])) "mount target ${m.target} is managed by the jail itself";
  checks =
    [
      (check (builtins.isString (args.name or null) && builtins.match "[a-z][a-z0-9_-]*" args.name != null) "name must match [a-z][a-z0-9_-]* (it becomes the tool's env value)")
      (check (builtins.isString (args.description or "")) "description must be a string")
      (oneOf "interpreter" [ "bash" "python" "node" ] (args.interpreter or null))
      (oneOf "projectAccess" [ "none" "ro" "rw" ] (args.projectAccess or "ro"))
      networkCheck
      (positiveInt "timeoutSeconds" (args.timeoutSeconds or 30))
      (positiveInt "memoryMb" (args.memoryMb or 512))
      (positiveInt "maxProcesses" (args.maxProcesses or 256))
      (positiveInt "workspaceMb" (args.workspaceMb or 256))
      (check (builtins.isList (args.packages or [ ])) "packages must be a list of packages")
      (check (builtins.all (p: builtins.isAttrs p && p ? outPath) (args.packages or [ ])) "every entry of packages must be a package (a derivation), e.g. pkgs.jq")
      (check (builtins.isAttrs (args.env or { }) && builtins.all builtins.isString (builtins.attrValues (args.env or { }))) "env must be an attribute set of strings")
    ]
    ++ map absolute mounts
    ++ map reserved mounts;
in
builtins.seq (builtins.all (x: x) checks) { inherit mounts; network = if network == [ ] then false else network; }
