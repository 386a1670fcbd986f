# Stand-in for the nixpkgs attributes nix/package/ uses (and runCommand for server.nix), backed by this machine's own tools (node and
# npm, ripgrep, bash, bubblewrap, nix, coreutils), so the real packaging files build here without
# nixpkgs. Only what those files need: mkDerivation runs `buildCommand`, or `buildPhase` then
# `installPhase` in a copy of `src`, with each native input's bin/ on PATH and its setup hook sourced.
{
  system ? builtins.currentSystem,
}:
let
  hostPath = "/usr/local/bin:/usr/bin:/bin";

  # A package whose bin/ links the named programs of this machine.
  hostTool =
    name: programs:
    derivation {
      inherit name system;
      builder = "/bin/sh";
      args = [
        "-c"
        ''mkdir -p "$out/bin" && for p in ${toString programs}; do ln -s "$(command -v "$p")" "$out/bin/$p"; done''
      ];
      PATH = hostPath;
    };

  mkDerivation =
    attrs:
    (derivation (
      removeAttrs attrs [
        "meta"
        "passthru"
      ]
      // {
        name = attrs.name or "${attrs.pname}-${attrs.version}";
        inherit system;
        builder = "/bin/bash";
        args = [ ./packaging-builder.sh ];
        PATH = hostPath;
      }
    ))
    // (attrs.passthru or { });

  makeBinaryWrapper = derivation {
    name = "make-wrapper-stand-in";
    inherit system;
    builder = "/bin/sh";
    args = [
      "-c"
      ''mkdir -p "$out/nix-support" && cp ${./packaging-make-wrapper.sh} "$out/nix-support/setup-hook"''
    ];
    PATH = hostPath;
  };
in
rec {
  inherit system;
  lib = {
    optional = condition: value: if condition then [ value ] else [ ];
    makeBinPath = packages: builtins.concatStringsSep ":" (map (p: "${p}/bin") packages);
    fetchers.proxyImpureEnvVars = [
      "http_proxy"
      "https_proxy"
      "HTTP_PROXY"
      "HTTPS_PROXY"
      "no_proxy"
      "NO_PROXY"
    ];
  };
  stdenvNoCC = {
    inherit mkDerivation;
    hostPlatform.isLinux = true;
  };
  stdenv = stdenvNoCC;
  inherit makeBinaryWrapper;
  runCommand =
    name: env: buildCommand:
    mkDerivation (env // { inherit name buildCommand; });
  nodejs = hostTool "nodejs" [
    "node"
    "npm"
  ];
  cacert = derivation {
    name = "cacert-stand-in";
    inherit system;
    builder = "/bin/sh";
    args = [
      "-c"
      ''mkdir -p "$out/etc/ssl/certs" && ln -s /etc/ssl/certs/ca-certificates.crt "$out/etc/ssl/certs/ca-bundle.crt"''
    ];
    PATH = hostPath;
  };
  ripgrep = hostTool "ripgrep" [ "rg" ];
  bash = hostTool "bash" [
    "bash"
    "sh"
  ];
  bubblewrap = hostTool "bubblewrap" [ "bwrap" ];
  nix = hostTool "nix" [
    "nix"
    "nix-env"
  ];
  callPackage =
    f: args:
    let
      function = if builtins.isFunction f then f else import f;
    in
    function (builtins.intersectAttrs (builtins.functionArgs function) pkgs // args);
  pkgs = {
    inherit
      lib
      stdenvNoCC
      makeBinaryWrapper
      nodejs
      cacert
      ripgrep
      bash
      bubblewrap
      nix
      ;
  };
}
