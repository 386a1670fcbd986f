import { join } from "node:path";
import { type PackageJson, readPackageJson } from "./package-json.js";
import { listEntries } from "../quiet-fs.js";
import type { PackageRecord } from "../types.js";

export interface NodeModulesScan {
  packages: PackageRecord[];
  /** Every directory listed: a package added, removed or replaced changes one of their mtimes. */
  watched: string[];
}

const MAX_EXPORTS = 20;

export function scanNodeModules(nodeModules: string, manager: string): NodeModulesScan {
  const scan: NodeModulesScan = { packages: [], watched: [] };
  const seen = new Set<string>();
  const add = (dir: string): boolean => {
    const found = readPackage(dir, manager);
    if (!found) return false;
    const key = `${found.name}@${found.version}`;
    if (!seen.has(key)) {
      seen.add(key);
      scan.packages.push(found);
    }
    return true;
  };
  // Top level first: read_package picks the first match, and that is what `require` resolves.
  const queue = [nodeModules];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    for (const { path, nested } of packageDirs(dir, scan.watched)) {
      if (add(path) && nested) queue.push(join(path, "node_modules"));
    }
  }
  for (const store of [".pnpm", ".bun"]) scanStore(join(nodeModules, store), scan.watched, add);
  return scan;
}

/** Package directories of one node_modules; `nested` when it may hold its own node_modules (npm). */
function* packageDirs(nodeModules: string, watched: string[]): Generator<{ path: string; nested: boolean }> {
  const entries = listEntries(nodeModules);
  if (!entries) return;
  watched.push(nodeModules);
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = join(nodeModules, entry.name);
    if (entry.name.startsWith("@")) {
      const scoped = listEntries(path);
      if (!scoped) continue;
      watched.push(path);
      for (const child of scoped) {
        if (!child.name.startsWith(".")) yield { path: join(path, child.name), nested: child.isDirectory() };
      }
      continue;
    }
    // A symlink (pnpm, workspaces) leads elsewhere: its node_modules is not a nested install here.
    if (entry.isDirectory() || entry.isSymbolicLink()) yield { path, nested: entry.isDirectory() };
  }
}

/**
 * A virtual store: <store>/<name>@<version>[_peers|+hash]/node_modules/<name>, scopes spelt
 * @scope+name. The package is the one real directory there; its dependencies are symlinks.
 */
function scanStore(store: string, watched: string[], add: (dir: string) => boolean): void {
  const entries = listEntries(store);
  if (!entries) return;
  watched.push(store);
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name === "node_modules") continue;
    const at = entry.name.indexOf("@", 1);
    const modules = join(store, entry.name, "node_modules");
    if (at > 0 && add(join(modules, entry.name.slice(0, at).replace("+", "/")))) continue;
    // A name the id does not spell plainly: the real directories are the package.
    for (const { path, nested } of packageDirs(modules, [])) if (nested) add(path);
  }
}

function readPackage(dir: string, manager: string): PackageRecord | undefined {
  const json = readPackageJson(dir);
  if (!json) return undefined;
  if (typeof json.name !== "string" || typeof json.version !== "string") return undefined;
  return {
    name: json.name,
    version: json.version,
    language: "node",
    manager,
    root: dir,
    entry: entryPoints(json),
    summary: typeof json.description === "string" ? json.description : undefined,
  };
}

function entryPoints(json: PackageJson): PackageRecord["entry"] {
  const entry: NonNullable<PackageRecord["entry"]> = {};
  if (typeof json.main === "string") entry.main = json.main;
  if (typeof json.module === "string") entry.module = json.module;
  const types = json.types ?? json.typings;
  if (typeof types === "string") entry.types = types;
  const exports = exportPaths(json.exports);
  if (exports.length > 0) entry.exports = exports;
  return Object.keys(entry).length > 0 ? entry : undefined;
}

/** The subpaths of `exports` ("." and "./feature"); a bare string or a conditions object is ".". */
function exportPaths(exports: unknown): string[] {
  if (typeof exports === "string" || Array.isArray(exports)) return ["."];
  if (!exports || typeof exports !== "object") return [];
  const keys = Object.keys(exports);
  const subpaths = keys.filter((key) => key.startsWith("."));
  return (subpaths.length > 0 ? subpaths : ["."]).slice(0, MAX_EXPORTS);
}
