# A host-backed stand-in for the part of nixpkgs that nixshed's Nix library uses, so the flake's
# own lib builds real artifacts on a machine that cannot fetch nixpkgs. Names and argument shapes
# follow nixpkgs; packages are derivations that link Debian's binaries (their versions come from
# dpkg, read by build-metadata.sh). Debian binaries need /usr and /lib at run time: those reach a
# jail only through an environment's `mounts` (see hostMounts), as a user's extra mount would.
{ hostVersions ? { } }:
let
  system = builtins.currentSystem;

  lib = {
    escapeShellArg = arg: "'${builtins.replaceStrings [ "'" ] [ "'\\''" ] (toString arg)}'";
    escapeShellArgs = args: builtins.concatStringsSep " " (map lib.escapeShellArg args);
    concatMapStringsSep = sep: f: list: builtins.concatStringsSep sep (map f list);
    getBin = p: p.bin or p.out or p;
    makeBinPath = packages: lib.concatMapStringsSep ":" (p: "${lib.getBin p}/bin") packages;
    optional = cond: x: if cond then [ x ] else [ ];
    optionals = cond: xs: if cond then xs else [ ];
    optionalString = cond: s: if cond then s else "";
    optionalAttrs = cond: attrs: if cond then attrs else { };
    mapAttrsToList = f: attrs: map (name: f name attrs.${name}) (builtins.attrNames attrs);
    getName = x: x.pname or (builtins.parseDrvName x.name).name;
    getVersion = x: x.version or (builtins.parseDrvName x.name).version;
  };

  # nixpkgs' runCommand, without stdenv: the build script runs under the host's bash with the
  # host's tools on PATH.
  runCommand =
    name: env: buildCommand:
    derivation (
      removeAttrs env [ "passthru" ]
      // {
        inherit name system;
        builder = "/bin/bash";
        # The trailing `:` keeps bash from exec'ing the last command: coreutils close stdout and
        # stderr before exiting, and Nix 2.8 kills a builder whose output closed before it exited.
        args = [ "-euo" "pipefail" "-c" "${buildCommand}\n:" ];
        PATH = "/usr/bin:/bin";
      }
    )
    // (env.passthru or { });

  # nixpkgs' runCommandCC: the same, with the host's C compiler as $CC.
  runCommandCC = name: env: runCommand name ({ CC = "cc"; } // env);

  runtimeShell = "${bash}/bin/bash";

  writeTextFile =
    { name, text, executable ? false, destination ? "" }:
    runCommand name { inherit text; passAsFile = [ "text" ]; } ''
      target="$out"${lib.escapeShellArg destination}
      mkdir -p "$(dirname "$target")"
      cp "$textPath" "$target"
      ${lib.optionalString executable ''chmod +x "$target"''}
    '';
  writeText = name: text: writeTextFile { inherit name text; };
  writeShellScript = name: text: writeTextFile { inherit name; executable = true; text = "#!${runtimeShell}\n${text}"; };
  writeShellScriptBin = name: text: writeTextFile {
    inherit name;
    executable = true;
    destination = "/bin/${name}";
    text = "#!${runtimeShell}\n${text}";
  };

  # nixpkgs' closureInfo; only store-paths (what nixshed reads) is produced.
  closureInfo =
    { rootPaths }:
    runCommand "closure-info"
      { exportReferencesGraph = builtins.concatLists (builtins.genList (i: [ "graph${toString i}" (builtins.elemAt rootPaths i) ]) (builtins.length rootPaths)); }
      ''
        mkdir "$out"
        for graph in graph*; do
          while read -r path; do
            read -r _deriver; read -r count
            for ((i = 0; i < count; i++)); do read -r _ref; done
            echo "$path"
          done < "$graph"
        done | sort -u > "$out/store-paths"
      '';

  # A Debian package's programs, linked from the host: all that dpkg -L lists, or the named ones
  # from /usr/bin (for node, which may come from elsewhere than a .deb).
  debian =
    { pname, deb ? pname, programs ? null }:
    let
      missing = "{ echo 'the harness needs the Debian package ${deb}: apt-get install ${deb}' >&2; exit 1; }";
    in
    runCommand "${pname}-${hostVersions.${deb} or "0"}" { inherit pname; version = hostVersions.${deb} or "0"; } ''
      mkdir -p "$out/bin"
      ${if programs == null then ''
        dpkg-query -W ${deb} >/dev/null || ${missing}
        for file in $(dpkg -L ${deb} | grep -E '^(/usr)?/s?bin/[^/]+$'); do
          [ -x "$file" ] && [ ! -d "$file" ] && ln -sf "$(readlink -f "$file")" "$out/bin/$(basename "$file")"
        done
      '' else ''
        for program in ${toString programs}; do
          [ -x "/usr/bin/$program" ] || ${missing}
          ln -s "$(readlink -f "/usr/bin/$program")" "$out/bin/$program"
        done
      ''}
    '';

  # A Python library: only a record that the Debian package is installed, its files stay under /usr.
  pythonModule =
    { pname, deb }:
    runCommand "python3.11-${pname}-${hostVersions.${deb} or "0"}" { inherit pname; version = hostVersions.${deb} or "0"; } ''
      dpkg-query -W ${deb} >/dev/null || { echo "the harness needs the Debian package ${deb}: apt-get install ${deb}" >&2; exit 1; }
      mkdir -p "$out" && echo ${deb} > "$out/debian-package"
    '';

  python3Packages = {
    requests = pythonModule { pname = "requests"; deb = "python3-requests"; };
    pyyaml = pythonModule { pname = "pyyaml"; deb = "python3-yaml"; };
    numpy = pythonModule { pname = "numpy"; deb = "python3-numpy"; };
  };

  python3 = debian { pname = "python3"; deb = "python3.11"; programs = [ "python3" "python3.11" ]; } // {
    pkgs = python3Packages;
    withPackages =
      select:
      let
        modules = select python3Packages;
      in
      runCommand "python3-${python3.version}-env" { pname = "python3"; inherit (python3) version; } ''
        mkdir -p "$out/bin"
        ln -s ${python3}/bin/* "$out/bin/"
        printf '%s\n' ${lib.escapeShellArgs modules} > "$out/modules"
      '';
  };

  # nixpkgs' bash carries its loadable builtins in lib/bash (bin/run loads mkdir and rmdir from
  # there, sparing two program starts per run); Debian ships them in bash-builtins.
  bash = runCommand "bash-${hostVersions.bash or "0"}" { pname = "bash"; version = hostVersions.bash or "0"; } ''
    dpkg-query -W bash-builtins >/dev/null || { echo 'the harness needs the Debian package bash-builtins: apt-get install bash-builtins' >&2; exit 1; }
    mkdir -p "$out/lib"
    ln -s ${debian { pname = "bash"; }}/bin "$out/bin"
    ln -s /usr/lib/bash "$out/lib/bash"
  '';
  cacert = runCommand "nss-cacert" { pname = "nss-cacert"; version = hostVersions.ca-certificates or "0"; } ''
    mkdir -p "$out/etc/ssl/certs"
    cp /etc/ssl/certs/ca-certificates.crt "$out/etc/ssl/certs/ca-bundle.crt"
  '';
in
{
  inherit lib system runCommand runCommandCC runtimeShell writeTextFile writeText writeShellScript writeShellScriptBin closureInfo;
  inherit bash cacert python3 python3Packages;
  coreutils = debian { pname = "coreutils"; };
  findutils = debian { pname = "findutils"; };
  gnugrep = debian { pname = "gnugrep"; deb = "grep"; };
  gnused = debian { pname = "gnused"; deb = "sed"; };
  gawk = debian { pname = "gawk"; };
  jq = debian { pname = "jq"; };
  diffutils = debian { pname = "diffutils"; };
  file = debian { pname = "file"; };
  tree = debian { pname = "tree"; };
  nodejs = debian { pname = "nodejs"; programs = [ "node" ]; };
  bubblewrap = debian { pname = "bubblewrap"; };
  socat = debian { pname = "socat"; };
  curl = debian { pname = "curl"; };

  # Not nixpkgs: the host directories Debian's binaries need, as `mounts` entries.
  hostMounts = [
    "/usr"
    { source = "/lib"; optional = true; }
    { source = "/lib64"; optional = true; }
    { source = "/etc/alternatives"; optional = true; }
  ];
}
