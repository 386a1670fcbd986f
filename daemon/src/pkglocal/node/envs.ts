// Finds the project's node_modules directories: the root one, each workspace member's (npm, yarn
// and bun `workspaces`, pnpm-workspace.yaml), those of packages one or two levels down (web/,
// apps/site/: a front end beside a back end) and configured ones; and which manager made them.
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { ancestorsOf, dirInProject } from "../project-path.js";
import { isDirectory, listEntries, readScannedText } from "../quiet-fs.js";
import { matchesWildcard } from "../wildcard.js";
import { readPackageJson } from "./package-json.js";
import type { FoundEnvironment } from "../types.js";

export interface NodeDiscovery {
  environments: FoundEnvironment[];
  lookedFor: string[];
  inputs: string[];
}

const MAX_WORKSPACE_DIRS = 500;
/** Directories a `**` workspace glob may list, per scan: discovery runs on every scan, warm ones too. */
const MAX_GLOB_LISTINGS = 2000;
/** Most levels of a workspace glob: deeper than any project keeps its packages. */
const MAX_WORKSPACE_DEPTH = 32;

export function discoverNode(projectRoot: string, configured: string[]): NodeDiscovery {
  const manager = nodeManager(projectRoot);
  // Node resolves from every node_modules above a file too: a workspace member's hoisted dependencies.
  const ancestors = ancestorsOf(projectRoot).filter((dir) => isDirectory(join(dir, "node_modules")));
  const candidates: { kind: string; path: string; manager: string }[] = [
    ...configured.map((path) => ({ kind: "config", path: isAbsolute(path) ? path : resolve(projectRoot, path), manager })),
    { kind: "node_modules", path: join(projectRoot, "node_modules"), manager },
    ...workspaceDirs(projectRoot).map((dir) => ({ kind: "workspace", path: join(dir, "node_modules"), manager })),
    ...subpackageDirs(projectRoot).map((dir) => ({ kind: "subdirectory", path: join(dir, "node_modules"), manager: nodeManager(dir) })),
    ...ancestors.map((dir) => ({ kind: "ancestor", path: join(dir, "node_modules"), manager: nodeManager(dir) })),
  ];
  const environments: FoundEnvironment[] = [];
  const seen = new Set<string>();
  for (const { kind, path, manager } of candidates) {
    if (seen.has(path) || !isDirectory(path)) continue;
    seen.add(path);
    environments.push({ language: "node", kind, path: resolve(path, ".."), packagesDir: path, manager });
  }
  const manifests = ["package.json", "pnpm-workspace.yaml", ...LOCKFILES.map(([file]) => file)];
  const inputs = [projectRoot, ...ancestors].flatMap((dir) => manifests.map((name) => join(dir, name)));
  return {
    environments,
    lookedFor: [
      "node_modules (here and above)",
      "workspace members' node_modules",
      "node_modules of packages two levels down",
      "pkglocal.node_modules",
    ],
    inputs,
  };
}

const LOCKFILES: [file: string, manager: string][] = [
  ["pnpm-lock.yaml", "pnpm"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["yarn.lock", "yarn"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
];

/** The lockfile says who installed; without one, the marker each manager leaves in node_modules. */
function nodeManager(projectRoot: string): string {
  for (const [file, manager] of LOCKFILES) if (existsSync(join(projectRoot, file))) return manager;
  if (existsSync(join(projectRoot, "node_modules", ".modules.yaml"))) return "pnpm";
  if (existsSync(join(projectRoot, "node_modules", ".yarn-state.yml"))) return "yarn";
  return "npm";
}

/** Member directories named by package.json `workspaces` or pnpm-workspace.yaml `packages`. */
function workspaceDirs(projectRoot: string): string[] {
  const patterns = [...packageJsonWorkspaces(projectRoot), ...pnpmWorkspaces(projectRoot)];
  const dirs = new Set<string>();
  const budget = { listings: MAX_GLOB_LISTINGS };
  for (const pattern of patterns) {
    // A member is the project's: a pattern that leads out of it ("../../home/me/app", "../**", "/home") names none.
    if (pattern.startsWith("!") || dirInProject(pattern, projectRoot) === undefined) continue;
    // Repeated "**" are one; a pattern deeper than any workspace names none (each level of thousands cost the server seconds).
    const parts = pattern
      .replace(/^\.\//, "")
      .replace(/\/$/, "")
      .split("/")
      .filter((part, i, all) => part !== "**" || all[i - 1] !== "**");
    if (parts.length > MAX_WORKSPACE_DEPTH) continue;
    for (const dir of expand(projectRoot, parts, budget)) {
      if (dirs.size >= MAX_WORKSPACE_DIRS) break;
      dirs.add(dir);
    }
  }
  return [...dirs];
}

/** Directories one or two levels down holding a package.json of their own (no node_modules or hidden one is walked). */
function subpackageDirs(projectRoot: string): string[] {
  const budget = { listings: MAX_GLOB_LISTINGS };
  const first = expand(projectRoot, ["*"], budget);
  return [...first, ...first.flatMap((dir) => expand(dir, ["*"], budget))]
    .filter((dir) => existsSync(join(dir, "package.json")))
    .slice(0, MAX_WORKSPACE_DIRS);
}

function packageJsonWorkspaces(projectRoot: string): string[] {
  const json = readPackageJson(projectRoot);
  const workspaces = Array.isArray(json?.workspaces) ? json.workspaces : (json?.workspaces as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(workspaces) ? workspaces.filter((each): each is string => typeof each === "string") : [];
}

/** The `packages:` list of pnpm-workspace.yaml (a flat YAML list; no YAML parser needed for it). */
function pnpmWorkspaces(projectRoot: string): string[] {
  const text = readScannedText(join(projectRoot, "pnpm-workspace.yaml")) ?? "";
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = listItem(line);
      if (item) patterns.push(item);
    }
  }
  return patterns;
}

/**
 * A YAML list item's plain or quoted value ("  - 'packages/*' # apps"), read without a regular expression: one took
 * quadratic time on a planted line of 400,000 spaces.
 */
function listItem(line: string): string | undefined {
  const item = line.trimStart();
  if (!item.startsWith("-")) return undefined;
  const comment = item.indexOf("#");
  const value = item.slice(1, comment < 0 ? undefined : comment).trim();
  const unquoted = /^(['"]).*\1$/s.test(value) ? value.slice(1, -1) : value;
  return unquoted === "" || /['"]/.test(unquoted) ? undefined : unquoted;
}

/** Directories matching a workspace glob: `*` is one directory level, `**` any number. */
function expand(base: string, parts: string[], budget: { listings: number }): string[] {
  if (parts.length === 0) return isDirectory(base) ? [base] : [];
  const [head, ...rest] = parts as [string, ...string[]];
  if (head === "**") return [...expand(base, rest, budget), ...subdirs(base, budget).flatMap((dir) => expand(dir, parts, budget))];
  if (head.includes("*")) {
    return subdirs(base, budget)
      .filter((dir) => matchesWildcard(head, dir.slice(base.length + 1)))
      .flatMap((dir) => expand(dir, rest, budget));
  }
  const next = join(base, head);
  return isDirectory(next) ? expand(next, rest, budget) : [];
}

function subdirs(dir: string, budget: { listings: number }): string[] {
  if (budget.listings-- <= 0) return [];
  return (listEntries(dir) ?? [])
    .filter((entry) => entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith("."))
    .map((entry) => join(dir, entry.name));
}
