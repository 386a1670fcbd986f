// Lists the distributions installed in one site-packages directory: wheels' *.dist-info, eggs'
// *.egg-info (directory or single file) and `setup.py develop`'s *.egg-link, each with its exact
// version, the names it is imported by and, for editable installs, where its source lives.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  editableSource,
  isEntryName,
  normalizePythonName,
  readCoreMetadata,
  readLines,
  readPthTargets,
  recordLayout,
  recordTopLevel,
  type CoreMetadata,
} from "./metadata.js";
import { listEntries, listNames, readScannedText } from "../quiet-fs.js";
import type { PackageRecord } from "../types.js";

/** Kinds of metadata, best first: when a distribution has two (Debian ships both), the first wins. */
const READERS: [suffix: string, read: (sitePackages: string, entry: string, manager: string) => PackageRecord | undefined][] = [
  [".dist-info", distInfo],
  [".egg-info", eggInfo],
  [".egg-link", eggLink],
];

export function scanSitePackages(sitePackages: string, manager: string): PackageRecord[] {
  const names = listNames(sitePackages);
  const packages: PackageRecord[] = [];
  const seen = new Set<string>();
  for (const [suffix, read] of READERS) {
    for (const entry of names) {
      if (!entry.endsWith(suffix)) continue;
      const found = read(sitePackages, entry, manager);
      if (!found) continue;
      const key = `${normalizePythonName(found.name)}@${found.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      packages.push(found);
    }
  }
  return packages;
}

function record(
  meta: CoreMetadata | undefined,
  fields: Omit<PackageRecord, "name" | "version" | "language" | "summary">,
): PackageRecord | undefined {
  if (!meta?.name || !meta.version) return undefined;
  return { name: meta.name, version: meta.version, language: "python", summary: meta.summary, ...fields };
}

function distInfo(sitePackages: string, entry: string, manager: string): PackageRecord | undefined {
  const dir = join(sitePackages, entry);
  const meta = readCoreMetadata(join(dir, "METADATA"));
  const { entries, paths } = recordTopLevel(readLines(join(dir, "RECORD")) ?? []);
  const editable = editableSource(dir);
  const layout = recordLayout(entries, paths);
  // RECORD is exact; top_level.txt (setuptools only) is read when RECORD says nothing.
  const topLevel = layout.importNames.length === 0 || entries.length === 0 || editable ? readLines(join(dir, "top_level.txt")) : undefined;
  if (editable) return editableRecord(meta, sitePackages, entries, topLevel, editable, manager);
  const importNames = layout.importNames.length > 0 ? layout.importNames : (topLevel ?? []);
  const members = entries.length > 0 ? layout.members : importable(sitePackages, topLevel ?? []);
  return record(meta, { manager, root: sitePackages, members: withEntry(members, entry), importNames });
}

/** An editable install: the code is read where the .pth (or direct_url.json) points, not in site-packages. */
function editableRecord(
  meta: CoreMetadata | undefined,
  sitePackages: string,
  entries: string[],
  topLevel: string[] | undefined,
  source: string,
  manager: string,
): PackageRecord | undefined {
  const targets = entries.filter((name) => name.endsWith(".pth")).flatMap((pth) => readPthTargets(sitePackages, pth));
  const target = targets[0];
  if (target && target.members.length > 0) {
    const mapped = targets.filter((each) => each.root === target.root);
    return record(meta, {
      manager,
      root: target.root,
      members: mapped.flatMap((each) => each.members),
      importNames: mapped.flatMap((each) => each.importNames),
      editable: source,
    });
  }
  // The code lives in a directory of the developer's; only what it imports from there is the package.
  const root = target?.root ?? source;
  const importNames = topLevel ?? packagesIn(root);
  return record(meta, { manager, root, members: importable(root, importNames), importNames, editable: source });
}

/** The entries of root that hold the given import names: a package directory or a module file. */
function importable(root: string, importNames: string[]): string[] {
  return [...new Set(importNames.map((name) => name.split(".", 1)[0]!))]
    .filter(isEntryName)
    .flatMap((name) => [name, `${name}.py`, `${name}.pyi`])
    .filter((entry) => existsSync(join(root, entry)));
}

/** Importable names directly under a source directory: packages (with __init__.py) and modules. */
function packagesIn(dir: string): string[] {
  return (listEntries(dir) ?? [])
    .filter((each) =>
      each.isDirectory()
        ? existsSync(join(dir, each.name, "__init__.py"))
        : /^[A-Za-z_]\w*\.py$/.test(each.name) && !["setup.py", "conftest.py", "noxfile.py"].includes(each.name),
    )
    .map((each) => each.name.replace(/\.py$/, ""));
}

function withEntry(members: string[], entry: string): string[] {
  return members.includes(entry) ? members : [...members, entry];
}

function eggInfo(sitePackages: string, entry: string, manager: string): PackageRecord | undefined {
  const path = join(sitePackages, entry);
  const single = readCoreMetadata(path);
  if (single?.name) return record(single, { manager, root: sitePackages, members: [entry], importNames: [] });
  const meta = readCoreMetadata(join(path, "PKG-INFO"));
  const topLevel = readLines(join(path, "top_level.txt")) ?? [];
  // installed-files.txt names files relative to the egg-info directory: ../pkg/__init__.py, PKG-INFO.
  const installed = (readLines(join(path, "installed-files.txt")) ?? []).map((line) =>
    line.startsWith("../") ? line.slice(3) : `${entry}/${line}`,
  );
  const { entries, paths } = recordTopLevel(installed);
  const layout = recordLayout(entries, paths);
  const members = entries.length > 0 ? layout.members : importable(sitePackages, topLevel);
  return record(meta, {
    manager,
    root: sitePackages,
    members: withEntry(members, entry),
    importNames: layout.importNames.length > 0 ? layout.importNames : topLevel,
  });
}

/** `setup.py develop`: the .egg-link's first line is the source directory holding *.egg-info. */
function eggLink(sitePackages: string, entry: string, manager: string): PackageRecord | undefined {
  const text = readScannedText(join(sitePackages, entry));
  if (text === undefined) return undefined;
  const source = text.split(/\r?\n/, 1)[0]!.trim();
  const root = source.startsWith("/") ? source : join(dirname(join(sitePackages, entry)), source);
  const info = listNames(root).find((name) => name.endsWith(".egg-info"));
  if (!info) return undefined;
  const meta = readCoreMetadata(join(root, info, "PKG-INFO"));
  const importNames = readLines(join(root, info, "top_level.txt")) ?? packagesIn(root);
  return record(meta, { manager, root, members: [...importable(root, importNames), info], importNames, editable: root });
}
