import { isAbsent } from "../files/absence.js";
import { readTextPage } from "../files/text-page.js";
import { PkgLocalError } from "./errors.js";
import { readPackageJson } from "./node/package-json.js";
import { resolveInPackage } from "./package-confine.js";
import { README } from "./package-tree.js";
import { readMetadataBody } from "./python/metadata.js";
import { listNames } from "./quiet-fs.js";
import type { PackageRecord } from "./types.js";

export interface Excerpt {
  path: string;
  text: string;
  /** More follows in the file. */
  more: boolean;
}

const README_LINES = 40;
const ENTRY_LINES = 40;
const EXCERPT_BYTES = 4096;

export async function readmeExcerpt(pkg: PackageRecord): Promise<Excerpt | undefined> {
  const distInfo = pkg.members?.find((member) => member.endsWith(".dist-info"));
  if (distInfo) {
    const body = unlessUnreadable(() => {
      const { real, within } = resolveInPackage(pkg, `${distInfo}/METADATA`);
      return readMetadataBody(real, within);
    });
    if (body) return cut(`${distInfo}/METADATA`, body);
  }
  const readme = listNames(pkg.root).find((name) => README.test(name));
  return readme ? excerpt(pkg, readme, README_LINES) : undefined;
}

export async function entryExcerpt(pkg: PackageRecord): Promise<Excerpt | undefined> {
  const candidates = pkg.language === "node" ? nodeEntryCandidates(pkg.root) : pythonEntryCandidates(pkg);
  for (const path of candidates) {
    const found = await excerpt(pkg, path, ENTRY_LINES);
    if (found) return found;
  }
  return undefined;
}

function cut(path: string, text: string): Excerpt {
  const lines = text.split("\n");
  let kept = lines.slice(0, README_LINES).join("\n");
  if (kept.length > EXCERPT_BYTES) kept = kept.slice(0, EXCERPT_BYTES);
  return { path, text: kept, more: kept.length < text.length };
}

async function excerpt(pkg: PackageRecord, path: string, lines: number): Promise<Excerpt | undefined> {
  const resolved = unlessUnreadable(() => resolveInPackage(pkg, path));
  if (resolved === undefined) return undefined;
  const page = await readTextPage(resolved.real, { endLine: lines, maxBytes: EXCERPT_BYTES }, resolved.within).catch((error: unknown) => {
    if (isAbsent(error)) return undefined;
    throw error;
  });
  if (page === undefined || typeof page === "string" || page.binary) return undefined;
  return { path, text: page.text, more: page.totalLines === undefined || page.endLine < page.totalLines };
}

/** Python: the first import name's __init__.py, or its module file. */
function pythonEntryCandidates(pkg: PackageRecord): string[] {
  return (pkg.importNames ?? []).slice(0, 1).flatMap((name) => {
    const path = name.replace(/\./g, "/");
    return [`${path}/__init__.py`, `${path}.py`, `${path}/__init__.pyi`, `${path}.pyi`];
  });
}

/** Node: what `import` or `require` of the bare name loads: exports ".", module, main, index.js. */
function nodeEntryCandidates(root: string): string[] {
  const json = readPackageJson(root);
  if (!json) return [];
  const named = [exportTarget(json.exports), json.module, json.main].filter((each): each is string => typeof each === "string");
  return [...named.map((each) => each.replace(/^\.\//, "")).flatMap((each) => [each, `${each}.js`, `${each}/index.js`]), "index.js"];
}

/** The file `exports` maps "." to, through conditions (import, require, node, default). */
function exportTarget(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (Array.isArray(exports)) return exportTarget(exports[0]);
  if (!exports || typeof exports !== "object") return undefined;
  const map = exports as Record<string, unknown>;
  if ("." in map) return exportTarget(map["."]);
  for (const condition of ["import", "require", "node", "default"]) {
    const target = exportTarget(map[condition]);
    if (target) return target;
  }
  return undefined;
}

/** What `read` returns, or undefined when its file is not there or lies outside the package; other errors are thrown. */
function unlessUnreadable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof PkgLocalError || isAbsent(error)) return undefined;
    throw error;
  }
}
