// Finds the package an agent names: by its name (Python names compared as pip does), by an import
// name (PIL finds Pillow), optionally pinned as name@version; and, failing that, the closest names.
import { editDistance } from "../config/suggest.js";
import { normalizePythonName } from "./python/metadata.js";
import type { PackageRecord } from "./types.js";

export interface Lookup {
  found?: PackageRecord;
  /** Other versions of the same name, when more than one is installed. */
  others: PackageRecord[];
  closest: string[];
}

const CLOSEST = 5;

/** "name", "@scope/name", "name@1.2.3", "@scope/name@1.2.3". */
function splitSpec(spec: string): { name: string; version?: string } {
  const at = spec.indexOf("@", 1);
  return at < 0 ? { name: spec } : { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

const key = (name: string) => normalizePythonName(name);

/** Python names compare as pip does (Foo_Bar is foo-bar); npm names are exact but for case. */
function named(record: PackageRecord, name: string): boolean {
  return record.language === "python" ? key(record.name) === key(name) : record.name.toLowerCase() === name.toLowerCase();
}

export function findPackage(packages: PackageRecord[], spec: string): Lookup {
  const { name, version } = splitSpec(spec.trim());
  const byName = packages.filter((each) => named(each, name));
  const candidates = byName.length > 0 ? byName : packages.filter((each) => each.importNames?.includes(name));
  const found = version === undefined ? candidates[0] : candidates.find((each) => each.version === version);
  if (found) return { found, others: candidates.filter((each) => each !== found), closest: [] };
  const closest = candidates.length > 0 ? candidates.map((each) => `${each.name}@${each.version}`) : closestNames(packages, name);
  return { others: [], closest };
}

/** The installed names near `name` (a typo, a missing prefix): those containing it first, then by edit distance; none when none is near. */
function closestNames(packages: PackageRecord[], name: string): string[] {
  const wanted = key(name);
  const names = [...new Set(packages.flatMap((each) => [each.name, ...(each.importNames ?? [])]))];
  const scored = names
    .map((each) => {
      const candidate = key(each);
      return { each, distance: candidate.includes(wanted) ? 0 : editDistance(candidate, wanted) };
    })
    .sort((a, b) => a.distance - b.distance || a.each.localeCompare(b.each));
  // The nearest of names far off (requests: left-pad, pip) would read as a suggestion.
  return scored
    .filter(({ distance }) => distance <= Math.max(2, Math.ceil(wanted.length / 3)))
    .slice(0, CLOSEST)
    .map(({ each }) => each);
}
