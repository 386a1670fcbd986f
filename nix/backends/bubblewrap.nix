# The jail every artifact uses: bubblewrap with only the environment's runtime closure under
# /nix/store (read-only), /workspace (HOME, the scratch directory) and /tmp as size-limited tmpfs, a cleared
# environment, new user/pid/ipc/uts/cgroup namespaces (and network unless allowed), a minimal /etc
# and the extra mounts. Everything fixed is decided here at build time and baked into bin/run as a
# bash array; what changes per call (the project and its protections, the cwd, the code) is added by
# ./jail.bash at run time.
{
  pkgs,
  name,
  interpreter,
  packages,
  network,
  projectAccess,
  env,
  mounts,
  memoryMb,
  maxProcesses,
  workspaceMb,
}:
let
  inherit (pkgs) lib;

  # The session kernels (agent/): bin/session-run runs the interpreter's.
  agent = ../../agent;
  kernel = "${agent}/${{ python = "kernel.py"; node = "kernel.mjs"; bash = "kernel.bash"; }.${interpreter}}";

  etc = {
    passwd = pkgs.writeText "passwd" ''
      root:x:0:0:root:/workspace:/run/nixshed/nologin
      sandbox:x:1000:1000:sandbox:/workspace:${pkgs.bash}/bin/bash
      nobody:x:65534:65534:nobody:/var/empty:/run/nixshed/nologin
    '';
    group = pkgs.writeText "group" ''
      root:x:0:
      sandbox:x:1000:
      nogroup:x:65534:
    '';
    hosts = pkgs.writeText "hosts" ''
      127.0.0.1 localhost nixshed
      ::1 localhost nixshed
    '';
  };

  # network = true shares the host's network; a list of destinations keeps the jail's own empty
  # network namespace and reaches only those, through the daemon's egress proxy
  # (daemon/src/jail/egress): bin/run binds the proxy's socket at /run/nixshed/egress.sock and
  # starts `relay` first, which listens on 127.0.0.1:3128 (where the proxy variables point) and
  # forwards each connection to that socket. No DNS, no UDP, no other route out.
  open = network == true;
  egress = builtins.isList network && network != [ ];
  online = open || egress;
  proxyPort = "3128";
  proxyUrl = "http://127.0.0.1:${proxyPort}";
  # Jail-local servers are reached directly, unless the list names a loopback destination: those
  # are the host's, reached through the proxy.
  listsLoopback = builtins.any (d: builtins.match "(localhost|127\\..*|\\[::1].*|::1)(:[0-9]+)?" d != null) (if egress then network else [ ]);
  proxyVariables = lib.optionalAttrs egress (
    builtins.listToAttrs (map (name: { inherit name; value = proxyUrl; }) [ "HTTP_PROXY" "HTTPS_PROXY" "ALL_PROXY" "http_proxy" "https_proxy" "all_proxy" ])
    // {
      # Node's own http, https and fetch follow the variables only when told to (Node >= 22.21 / 24.5).
      NODE_USE_ENV_PROXY = "1";
    }
    // lib.optionalAttrs (!listsLoopback) { NO_PROXY = "localhost,127.0.0.1,::1"; no_proxy = "localhost,127.0.0.1,::1"; }
  );
  # What the jail's kernel counted of the ways around the proxy (connections refused by a closed
  # port, datagrams to nowhere, DNS included, and addresses with no route), read inside the jail
  # from its own network namespace and sent to the proxy as a line "<when> <refused> <datagrams>
  # <no route>" on a connection that starts "NIXSHED-COUNTERS" (daemon/src/jail/egress/counters.ts):
  # a session answers each newline the daemon sends; a run sends one line when its program is done.
  socket = "/run/nixshed/egress.sock";
  counters = pkgs.writeShellScript "nixshed-egress-counters" ''
    declare -A count
    snapshot() {
      local -a head values
      local i key value
      while read -r -a head && read -r -a values; do
        for ((i = 1; i < ''${#head[@]}; i++)); do count[''${head[0]}''${head[i]}]=''${values[i]}; done
      done </proc/net/snmp
      while read -r key value; do count[$key]=$value; done </proc/net/snmp6
      printf '%s %s %s %s\n' "$1" "''${count[Tcp:AttemptFails]:-0}" \
        "$((''${count[Udp:NoPorts]:-0} + ''${count[Udp6NoPorts]:-0}))" \
        "$((''${count[Ip:OutNoRoutes]:-0} + ''${count[Ip6OutNoRoutes]:-0}))"
    }
    # A session's interrupt (SIGINT to the jail's processes) is for its code, not for this.
    trap "" INT
    printf 'NIXSHED-COUNTERS\r\n\r\n'
    if [ "$1" = final ]; then snapshot final; exit; fi
    while read -r _; do snapshot now; done
  '';
  relayProgram = import ./egress-relay.nix { inherit (pkgs) runCommandCC; };
  # No set-user-ID or set-group-ID file from a jail, no kernel keyrings (./seccomp.c).
  seccompFilter = import ./seccomp.nix { inherit (pkgs) runCommandCC; };
  # bin/run and bin/session-run start it with their entry ("run", "session-run") before the program.
  # The relay is ready when its socket shows in /proc/net/tcp: 127.0.0.1:3128 in hex, state 0A (LISTEN).
  relay = pkgs.writeShellScript "nixshed-egress-relay" ''
    socat=${pkgs.socat}/bin/socat
    entry=$1
    shift
    ${relayProgram}/bin/nixshed-egress-relay ${proxyPort} ${socket} </dev/null >/dev/null 2>&1 3>&- 4>&- &
    # A session's counters answer the daemon at the end of each call, for as long as the session lives.
    [ "$entry" = run ] || "$socat" UNIX-CONNECT:${socket} EXEC:${counters} </dev/null >/dev/null 2>&1 3>&- 4>&- &
    # The program starts once the relay listens (looking costs no process start); 5 s at most.
    deadline=$((''${EPOCHREALTIME/[.,]/} + 5000000))
    while ((''${EPOCHREALTIME/[.,]/} < deadline)); do
      while read -r _ local _ state _; do
        [ "$local" = 0100007F:0C38 ] && [ "$state" = 0A ] || continue
        [ "$entry" = run ] || exec "$@"
        # A run's counters go once its program is done; socat ends when the daemon has read them.
        "$@"
        status=$?
        "$socat" -t 2 UNIX-CONNECT:${socket} EXEC:"${counters} final" </dev/null >/dev/null 2>&1
        exit "$status"
      done </proc/net/tcp
    done
    echo "nixshed jail: the network relay did not start" >&2
    exit 125
  '';

  path = lib.makeBinPath packages;
  certificates = "${pkgs.cacert}/etc/ssl/certs/ca-bundle.crt";
  workspaceBytes = toString (workspaceMb * 1024 * 1024);

  mountArgs = builtins.concatLists (
    map (
      m: [ ((if m.writable then "--bind" else "--ro-bind") + lib.optionalString m.optional "-try") (toString m.source) m.target ]
    ) mounts
  );

  jailVariables = {
    PATH = path;
    HOME = "/workspace";
    USER = "sandbox";
    LOGNAME = "sandbox";
    TMPDIR = "/tmp";
    LANG = "C.UTF-8";
    TERM = "dumb";
  } // lib.optionalAttrs online {
    SSL_CERT_FILE = "/etc/ssl/certs/ca-certificates.crt";
    NIX_SSL_CERT_FILE = "/etc/ssl/certs/ca-certificates.crt";
  } // proxyVariables // env;

  staticArgs =
    [
      "--unshare-user" "--unshare-pid" "--unshare-ipc" "--unshare-uts" "--unshare-cgroup-try"
      "--disable-userns"
      "--uid" "1000" "--gid" "1000" "--hostname" "nixshed"
      "--die-with-parent" "--new-session"
      "--proc" "/proc" "--dev" "/dev"
      # /dev is a tmpfs of bwrap's, /dev/shm in it, of no size of their own: half the host's memory, which only a
      # cgroup counts against the jail. /dev/shm gets /tmp's size, and the rest of /dev is read-only once the
      # mounts (some may go under /dev) are made.
      "--size" workspaceBytes "--tmpfs" "/dev/shm"
      # POSIX programs (Python's os.system, Node's execSync, make, …) run commands through /bin/sh.
      "--symlink" "${pkgs.bash}/bin/bash" "/bin/sh"
      "--size" workspaceBytes "--tmpfs" "/tmp"
      "--size" workspaceBytes "--tmpfs" "/workspace"
      "--ro-bind" etc.passwd "/etc/passwd"
      "--ro-bind" etc.group "/etc/group"
      "--ro-bind" etc.hosts "/etc/hosts"
      "--clearenv"
    ]
    ++ lib.optionals (!open) [ "--unshare-net" ]
    ++ lib.optionals open [ "--ro-bind-try" "/etc/resolv.conf" "/etc/resolv.conf" ]
    ++ lib.optionals online [ "--ro-bind" certificates "/etc/ssl/certs/ca-certificates.crt" ]
    ++ mountArgs
    ++ [ "--remount-ro" "/dev" ]
    ++ builtins.concatLists (lib.mapAttrsToList (n: v: [ "--setenv" n v ]) jailVariables);

  closure = pkgs.closureInfo {
    # getBin: PATH names the bin outputs (makeBinPath), which a package's default output may not reference.
    rootPaths = packages ++ map lib.getBin packages ++ builtins.attrValues etc ++ lib.optional online pkgs.cacert ++ lib.optionals egress [ relay counters ] ++ [ agent ];
  };

  constants = entry: ''
    bwrap=${pkgs.bubblewrap}/bin/bwrap
    seccomp=${seccompFilter}
    sleep=${pkgs.coreutils}/bin/sleep
    loadables=${pkgs.bash}/lib/bash
    entry=${entry}
    env_name=${lib.escapeShellArg name}
    interpreter=${{ python = "python3"; node = "node"; bash = "bash"; }.${interpreter}}
    code_file=${{ python = "main.py"; node = "main.js"; bash = "main.sh"; }.${interpreter}}
    run_flags=(${
      {
        # The code imports from the working directory, as `python3 -c` code does (agent/run-main.py).
        python = "-c ${lib.escapeShellArg (builtins.readFile (agent + "/run-main.py"))}";
        node = "--import=${agent}/node-require.mjs";
        bash = "";
      }.${interpreter}
    })
    kernel=${lib.escapeShellArg kernel}
    artifact_access=${projectAccess}
    memory_mb=${toString memoryMb}
    max_processes=${toString maxProcesses}
    relay=${if egress then relay else ""}
  '';
in
pkgs.runCommand "nixshed-jail-${name}"
  {
    runConstants = constants "run";
    sessionConstants = constants "session-run";
    body = builtins.readFile ./jail.bash;
    passAsFile = [ "runConstants" "sessionConstants" "body" ];
  }
  ''
    mkdir -p "$out/bin"
    static() {
      printf 'static=('
      printf ' %q' ${lib.escapeShellArgs staticArgs}
      while read -r storePath; do printf ' --ro-bind %q %q' "$storePath" "$storePath"; done < ${closure}/store-paths
      printf ' )\n'
    }
    for entry in run session-run; do
      constants="$runConstantsPath"
      [ "$entry" = run ] || constants="$sessionConstantsPath"
      # pkgs.bash (nixpkgs' runtimeShell): the bash whose loadables ($loadables) bin/run enables.
      { echo "#!${pkgs.bash}/bin/bash"; static; cat "$constants" "$bodyPath"; } > "$out/bin/$entry"
      chmod +x "$out/bin/$entry"
    done
  ''
