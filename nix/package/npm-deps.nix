# The workspace's npm dependencies as a fixed-output derivation: npm itself installs them from its
# default registry (nothing here names a registry) and fetch-npm-deps.sh says why a node_modules
# tree rather than npm's cache. Refresh the hash after changing package-lock.json:
#   nix/package/update-npm-deps-hash.sh
{
  lib,
  stdenvNoCC,
  nodejs,
  cacert,
  src,
  hash ? builtins.replaceStrings [ "\n" ] [ "" ] (builtins.readFile ./npm-deps.hash),
}:
stdenvNoCC.mkDerivation {
  name = "nixshed-npm-deps";
  inherit src;
  nativeBuildInputs = [ nodejs ];
  buildCommand = ''
    bash ${./fetch-npm-deps.sh} "$src" "$out"
  '';
  # npm's own CA list option: works whether or not this nodejs was built to use the system store.
  npm_config_cafile = "${cacert}/etc/ssl/certs/ca-bundle.crt";
  impureEnvVars = lib.fetchers.proxyImpureEnvVars;
  outputHashMode = "recursive";
  outputHashAlgo = "sha256";
  outputHash = hash;
}
