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
  const dirs = directoriesOf(paths);
  for (const entry of entries) {
    const dir = dirs.get(entry);
    if (dir && !dir.isPackage && isIdentifier(entry)) {
      for (const child of dir.children) {
        layout.members.push(`${entry}/${child}`);
        const name = child.replace(/\.pyi?$/, "");
        if (isIdentifier(name)) layout.importNames.push(`${entry}.${name}`);
      }
      continue;
    }
    layout.members.push(entry);
    if (METADATA_DIR.test(entry) || entry.endsWith(".pth")) continue;
    if (dir) {
      if (isIdentifier(entry)) layout.importNames.push(entry);
      continue;
    }
    const module = /^([A-Za-z_][A-Za-z0-9_]*)\.pyi?$/.exec(entry) ?? EXTENSION_MODULE.exec(entry);
    if (module && module[1] !== "__init__") layout.importNames.push(module[1]!);
  }
  layout.importNames = [...new Set(layout.importNames)];
  return layout;
}

interface InstalledDirectory {
  /** The entries installed in it. */
  children: Set<string>;
  /** Whether it has an __init__.py(i): a package, not a namespace directory. */
  isPackage: boolean;
}

/**
 * The directories at the top of the installed paths, in one pass: per top entry, a look through every path made
 * a planted RECORD of 20,000 lines take a minute of the server's time.
 */
function directoriesOf(paths: string[]): Map<string, InstalledDirectory> {
  const dirs = new Map<string, InstalledDirectory>();
  for (const path of paths) {
    const slash = path.indexOf("/");
    if (slash < 0) continue;
    const name = path.slice(0, slash);
    let dir = dirs.get(name);
    if (!dir) {
      dir = { children: new Set(), isPackage: false };
      dirs.set(name, dir);
    }
    const below = path.slice(slash + 1);
    if (below === "__init__.py" || below === "__init__.pyi") dir.isPackage = true;
    const child = below.split("/", 1)[0]!;
    if (isEntryName(child) && child !== "__pycache__") dir.children.add(child);
  }
  return dirs;
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
  const mapping = mappingBody(readScannedText(finderFile) ?? "");
  if (mapping === undefined) return [];
  const targets: PthTarget[] = [];
  for (const pair of mapping.matchAll(/['"]([^'"]+)['"]\s*:\s*['"]([^'"]+)['"]/g)) {
    const [, name, path] = pair;
    const slash = path!.lastIndexOf("/");
    const [root, member] = [path!.slice(0, slash), path!.slice(slash + 1)];
    if (root.startsWith("/") && isEntryName(member)) targets.push({ root, members: [member], importNames: [name!] });
  }
  return targets;
}

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * What the finder's `MAPPING = {…}` (or `MAPPING: dict[str, str] = {…}`) holds between its braces, found in one pass:
 * a regular expression took quadratic time on "MAPPING:" written a hundred thousand times.
 */
function mappingBody(text: string): string | undefined {
  // The "=" an annotation runs to (it holds none), and where the dict after it opens (-1: no dict follows).
  let equals = -1;
  let opens = -1;
  for (let at = text.indexOf("MAPPING"); at >= 0; at = text.indexOf("MAPPING", at + 1)) {
    let next = at + "MAPPING".length;
    while (isSpace(text[next])) next++;
    if (text[next] !== "=" && text[next] !== ":") continue;
    if (equals < next) {
      equals = text.indexOf("=", next);
      if (equals < 0) return undefined;
      let brace = equals + 1;
      while (isSpace(text[brace])) brace++;
      opens = text[brace] === "{" ? brace + 1 : -1;
    }
    if (opens < 0) continue;
    const close = text.indexOf("}", opens);
    return close < 0 ? undefined : text.slice(opens, close);
  }
  return undefined;
}
