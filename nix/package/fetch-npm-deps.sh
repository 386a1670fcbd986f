# shellcheck shell=bash
# Installs the workspace's npm dependencies exactly as package-lock.json pins them into OUT/node_modules,
# normalised so the result is byte-for-byte reproducible: the builder of the fixed-output derivation
# (npm-deps.nix) and the hash refresher (update-npm-deps-hash.sh) both run this one script.
#
# Usage: bash fetch-npm-deps.sh SRC OUT   (SRC holds package.json, package-lock.json and the
# workspaces' package.json files; `npm` and `node` on PATH; network access to npm's default registry)
#
# Why a node_modules tree and not npm's cache (what buildNpmPackage's npmConfigHook consumes):
# our package-lock.json has no `resolved` URLs, so an offline `npm ci` from a cache would need the
# registry's packuments (package documents), which change on every publish and cannot be pinned.
# An installed tree depends only on the lockfile: the tarballs are pinned by their integrity hashes.
# --omit=optional drops the only platform-specific packages (native bindings of the test tooling),
# so one hash serves every system. --ignore-scripts: nothing runs, nothing host-specific is built.
set -euo pipefail
src=$1
out=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/package.json" "$src/package-lock.json" "$work/"
cd "$work"
workspaces=$(node -p 'require("./package.json").workspaces?.join("\n") ?? ""')
for workspace in $workspaces; do
  mkdir -p "$workspace"
  cp "$src/$workspace/package.json" "$workspace/"
done

export HOME="$work/home" npm_config_cache="$work/cache"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false npm_config_progress=false
npm ci --ignore-scripts --omit=optional --loglevel=warn

# Not reproducible or not ours: npm's hidden lockfile (its format follows the npm version), the
# links npm makes to the workspaces and their programs (they point into the source tree), and the
# empty scope directories npm 10 (not 11) leaves for omitted optional packages.
rm -f node_modules/.package-lock.json
for workspace in $workspaces; do
  # shellcheck disable=SC2016 # the ${…} are JavaScript's
  node -e '
    const manifest = require(`./${process.argv[1]}/package.json`);
    const bins = typeof manifest.bin === "string" ? [manifest.name.split("/").pop()] : Object.keys(manifest.bin ?? {});
    console.log([manifest.name, ...bins.map((bin) => `.bin/${bin}`)].join("\n"));
  ' "$workspace" | while read -r link; do rm -f "node_modules/$link"; done
done
find node_modules -type d -empty -delete

mkdir -p "$out"
mv node_modules "$out/"
# Kept so a build can tell that package-lock.json changed since this output was fetched.
cp package-lock.json "$out/"
