// Reads what Python's installers leave beside a package: the METADATA (or PKG-INFO) headers, the
// RECORD of installed files, top_level.txt, direct_url.json and the .pth files of editable installs.
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { Within } from "../../files/descriptor-path.js";
import { readPlantedText } from "../../files/small-file.js";
import { readScannedText } from "../quiet-fs.js";
import { InvalidJson, readJsonFile } from "../../files/json-file.js";

export interface CoreMetadata {
  name?: string;
  version?: string;
  summary?: string;
}

/** PEP 503: the name pip and every index compare by. */
export function normalizePythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

const HEAD_BYTES = 8192;

/** The headers of a METADATA/PKG-INFO file; Name and Version lead it, so the head usually suffices. */
export function readCoreMetadata(file: string): CoreMetadata | undefined {
  const text = readScannedText(file, { head: HEAD_BYTES });
  if (text === undefined) return undefined;
  const meta = parseHeaders(text);
  if ((meta.name && meta.version) || text.length < HEAD_BYTES) return meta;
  const whole = readScannedText(file);
  return whole === undefined ? meta : parseHeaders(whole);
}

function parseHeaders(text: string): CoreMetadata {
  const meta: CoreMetadata = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") break;
    const colon = line.indexOf(":");
    if (colon <= 0 || line.startsWith(" ") || line.startsWith("\t")) continue;
    const key = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "name") meta.name ??= value;
    else if (key === "version") meta.version ??= value;
    else if (key === "summary") meta.summary ??= value;
  }
  return meta;
}

/** The body of METADATA: the long description, usually the README. */
export function readMetadataBody(file: string, within?: Within): string {
  const text = readPlantedText(file, { within }) ?? "";
  const blank = text.search(/\r?\n\r?\n/);
  return blank < 0 ? "" : text.slice(blank).trimStart();
}

/** First path components of RECORD (or installed-files.txt) entries that live in site-packages. */
export function recordTopLevel(lines: string[]): { entries: string[]; paths: string[] } {
  const entries = new Set<string>();
  const paths: string[] = [];
  for (const line of lines) {
    // RECORD lines are CSV: path,hash,size; paths with commas are quoted.
    const path = line.startsWith('"') ? line.slice(1, line.indexOf('"', 1)) : line.split(",", 1)[0]!;
    if (!path || path.startsWith("../") || path.startsWith("/")) continue;
    paths.push(path);
    const first = path.split("/", 1)[0]!;
    if (isEntryName(first) && first !== "__pycache__") entries.add(first);
  }
  return { entries: [...entries], paths };
}

const EXTENSION_MODULE = /^([A-Za-z_][A-Za-z0-9_]*)(\.[A-Za-z0-9_-]+)*\.(so|pyd)$/;
const METADATA_DIR = /\.(dist-info|egg-info|data)$/;

export interface DistributionLayout {
  /** What site-packages entries (or namespace/child paths) the distribution installed. */
  members: string[];
  importNames: string[];
}

/**
 * Import names and members from the installed files: packages, modules and extension modules at
 * the top of site-packages. A directory without __init__.py is a namespace package shared with
 * other distributions: what this one brings is its children (google → google/protobuf, imported
 * as google.protobuf), and only those are its members.
 */
export function recordLayout(entries: string[], paths: string[]): DistributionLayout {
  const layout: DistributionLayout = { members: [], importNames: [] };
  const dirs = new Set(paths.filter((path) => path.includes("/")).map((path) => path.split("/", 1)[0]!));
  for (const entry of entries) {
    const namespace =
      dirs.has(entry) && isIdentifier(entry) && !paths.some((path) => path === `${entry}/__init__.py` || path === `${entry}/__init__.pyi`);
    if (namespace) {
      for (const child of namespaceChildren(entry, paths)) {
        layout.members.push(`${entry}/${child}`);
        const name = child.replace(/\.pyi?$/, "");
        if (isIdentifier(name)) layout.importNames.push(`${entry}.${name}`);
      }
      continue;
    }
    layout.members.push(entry);
    if (METADATA_DIR.test(entry) || entry.endsWith(".pth")) continue;
    if (dirs.has(entry)) {
      if (isIdentifier(entry)) layout.importNames.push(entry);
      continue;
    }
    const module = /^([A-Za-z_][A-Za-z0-9_]*)\.pyi?$/.exec(entry) ?? EXTENSION_MODULE.exec(entry);
    if (module && module[1] !== "__init__") layout.importNames.push(module[1]!);
  }
  layout.importNames = [...new Set(layout.importNames)];
  return layout;
}

/** The entries a distribution installed inside a namespace directory. */
function namespaceChildren(namespace: string, paths: string[]): string[] {
  const children = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/");
    if (parts[0] === namespace && parts.length >= 2 && isEntryName(parts[1]!) && parts[1] !== "__pycache__") children.add(parts[1]!);
  }
  return [...children];
}

/** A plain name inside site-packages: never ".", ".." or empty, which would widen a package to its parent. */
export function isEntryName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !name.includes("/");
}

function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

export function readLines(file: string): string[] | undefined {
  const text = readScannedText(file);
  return text?.split(/\r?\n/).filter((line) => line.trim() !== "");
}

/** The source directory of an editable install (PEP 660 direct_url.json), when it is one. */
export function editableSource(distInfo: string): string | undefined {
  let direct: z.infer<typeof directUrlSchema> | undefined;
  try {
    direct = readJsonFile(`${distInfo}/direct_url.json`, directUrlSchema, readScannedText);
  } catch (error) {
    if (error instanceof InvalidJson) return undefined; // Not the PEP 610 shape: not an editable install we can follow.
    throw error;
  }
  return direct?.dir_info?.editable && direct.url?.startsWith("file:") ? fileURLToPath(direct.url) : undefined;
}

/** PEP 610's direct_url.json, the parts an editable install is recognised by. */
const directUrlSchema = z.object({ url: z.string().optional(), dir_info: z.object({ editable: z.boolean().optional() }).optional() });

export interface PthTarget {
  /** Directory the code is imported from. */
  root: string;
  /** Entries of root the install maps (setuptools' finder); empty when the whole dir is on sys.path. */
  members: string[];
  importNames: string[];
}

/**
 * Where an editable install's .pth points: a plain directory line (hatchling, flit, old
 * setuptools) or setuptools' `import __editable___…_finder` with its MAPPING of name → path.
 */
export function readPthTargets(sitePackages: string, pthFile: string): PthTarget[] {
  const lines = readLines(`${sitePackages}/${pthFile}`) ?? [];
  const targets: PthTarget[] = [];
  for (const line of lines) {
    if (line.startsWith("#")) continue;
    const finder = /^import\s+(__editable__[\w.]*_finder)\b/.exec(line);
    if (finder) {
      targets.push(...finderMapping(`${sitePackages}/${finder[1]}.py`));
      continue;
    }
    if (line.startsWith("import ")) continue;
    targets.push({ root: line.startsWith("/") ? line : `${sitePackages}/${line}`, members: [], importNames: [] });
  }
  return targets;
}

function finderMapping(finderFile: string): PthTarget[] {
  const text = readScannedText(finderFile) ?? "";
  const mapping = /MAPPING\s*(?::[^=]*)?=\s*\{([^}]*)\}/.exec(text);
  if (!mapping) return [];
  const targets: PthTarget[] = [];
  for (const pair of mapping[1]!.matchAll(/['"]([^'"]+)['"]\s*:\s*['"]([^'"]+)['"]/g)) {
    const [, name, path] = pair;
    const slash = path!.lastIndexOf("/");
    const [root, member] = [path!.slice(0, slash), path!.slice(slash + 1)];
    if (root.startsWith("/") && isEntryName(member)) targets.push({ root, members: [member], importNames: [name!] });
  }
  return targets;
}
