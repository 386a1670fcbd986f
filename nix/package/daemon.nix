# The nixshed daemon: TypeScript compiled with the workspace's own tsc against the dependencies of
# npm-deps.nix, production dependencies only at run time, and a `nixshed` wrapper that finds its
# runtime tools. A plain derivation rather than buildNpmPackage: its npmConfigHook wants an npm
# cache and runs `npm ci` offline, which our resolved-less lockfile cannot do (see fetch-npm-deps.sh).
{
  lib,
  stdenvNoCC,
  nodejs,
  makeBinaryWrapper,
  ripgrep,
  bash,
  nix,
  bubblewrap,
  src,
  npmDeps,
}:
stdenvNoCC.mkDerivation {
  pname = "nixshed-daemon";
  version = (builtins.fromJSON (builtins.readFile ../../daemon/package.json)).version;
  inherit src npmDeps;
  nativeBuildInputs = [
    nodejs
    makeBinaryWrapper
  ];

  buildPhase = ''
    runHook preBuild
    if ! cmp -s package-lock.json "$npmDeps/package-lock.json"; then
      echo "package-lock.json changed since the npm dependencies were fetched." >&2
      echo "Refresh their hash: nix/package/update-npm-deps-hash.sh" >&2
      exit 1
    fi
    cp -r "$npmDeps/node_modules" node_modules
    chmod -R u+w node_modules
    node node_modules/typescript/bin/tsc -p daemon/tsconfig.json
    runHook postBuild
  '';

  installPhase = ''
    runHook preInstall
    HOME=$TMPDIR npm_config_cache=$TMPDIR/npm-cache npm_config_update_notifier=false \
      npm prune --omit=dev --offline --ignore-scripts --no-audit --no-fund --loglevel=warn
    # Nothing runs from node_modules/.bin, and its link to the workspace's own program (like the
    # workspace link prune re-creates) would point into sources that are not installed.
    rm -rf node_modules/.bin "node_modules/$(node -p 'require("./daemon/package.json").name')"
    find node_modules -type d -empty -delete
    mkdir -p "$out/lib/nixshed/daemon"
    cp -r package.json config.example.toml node_modules "$out/lib/nixshed/"
    cp -r daemon/package.json daemon/dist "$out/lib/nixshed/daemon/"
    # ripgrep, the sh that limits its memory, and bubblewrap are ours, first on PATH; nix goes last so
    # that a user's own nix (the one matching their nix daemon) wins and ours is only the fallback.
    makeWrapper ${nodejs}/bin/node "$out/bin/nixshed" \
      --add-flags "$out/lib/nixshed/daemon/dist/cli/main.js" \
      --prefix PATH : ${lib.makeBinPath ([ ripgrep bash ] ++ lib.optional stdenvNoCC.hostPlatform.isLinux bubblewrap)} \
      --suffix PATH : ${lib.makeBinPath [ nix ]}
    runHook postInstall
  '';

  meta = {
    description = "Nix-flake-first MCP server: nixpkgs search and execution, jailed sandboxes, project-aware tools";
    license = lib.licenses.mit;
    mainProgram = "nixshed";
    platforms = lib.platforms.linux ++ lib.platforms.darwin;
  };
}
