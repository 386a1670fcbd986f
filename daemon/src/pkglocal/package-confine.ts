// Keeps every read inside the package: the realpath of what is read must lie within the realpath
// of the package's directory (or, for a Python distribution, of one of its own entries in
// site-packages). A symlink leading out of the package, or `..`, is refused. And the package itself
// stays where packages live (`within`: the project, its environment, the Nix store): an entry whose
// realpath leads elsewhere, through an editable install's .pth or a symlink, bounds nothing.
import { isAbsolute, join, normalize, relative } from "node:path";
import type { Within } from "../files/descriptor-path.js";
import { isInside } from "../files/path-inside.js";
import { PkgLocalError } from "./errors.js";
import { DISTRIBUTION_INFO, realpathOf } from "./quiet-fs.js";
import type { PackageRecord } from "./types.js";

/** The directories and files that make up the package, as installed: its members, or its whole root. */
function packageEntries(pkg: PackageRecord): string[] {
  return pkg.members ? pkg.members.map((member) => join(pkg.root, member)) : [pkg.root];
}

/** The real directories and files that make up the package, those inside `within` only. */
export function packageBounds(pkg: PackageRecord): string[] {
  const within = pkg.within ?? [];
  return packageEntries(pkg)
    .map(realpathOf)
    .filter((real): real is string => real !== undefined && isWithin(real, within));
}

/**
 * Whether what the scan read of the package (its package.json, its dist-info) lies within `within`:
 * a package linked to a host directory is described by that directory, whatever it points at.
 */
export function describedWithin(pkg: PackageRecord): boolean {
  const info = pkg.language === "node" ? pkg.root : pkg.members?.find((member) => DISTRIBUTION_INFO.test(member));
  if (info === undefined) return true;
  const real = realpathOf(pkg.language === "node" ? info : join(pkg.root, info));
  return real !== undefined && isWithin(real, pkg.within ?? []);
}

/** Bounds as a check of where an open file really lies (descriptor-path.ts). */
export const withinBounds =
  (bounds: string[]): Within =>
  (real) =>
    isWithin(real, bounds);

/** A path that leads out of the package, found before or after it is opened. */
export function leadsOutside(pkg: PackageRecord, path: string): PkgLocalError {
  return new PkgLocalError(`${path}: leads outside ${pkg.name}@${pkg.version}`, "only the package's own files can be read");
}

/**
 * `joined` when it lies in one of the package's entries; else, for a Python package (whose root is the shared
 * site-packages), the same path in its own directory where that exists ("__init__.py" is requests/__init__.py).
 */
function inOwnEntry(pkg: PackageRecord, joined: string, entries: string[]): string | undefined {
  if (isWithin(joined, entries)) return joined;
  if (!pkg.members || !isInside(joined, pkg.root)) return undefined;
  const below = relative(pkg.root, joined);
  return entries.map((entry) => join(entry, below)).find((candidate) => realpathOf(candidate) !== undefined);
}

export function isWithin(path: string, bounds: string[]): boolean {
  return bounds.some((bound) => isInside(path, bound));
}

/**
 * The real path of `path` (relative to the package root), refused unless it stays in the package, and `within`: where
 * the file must still lie once open, as a directory on the way swapped for a symlink since leads elsewhere. The
 * bounds are taken once, before the path is resolved, so a swap in between cannot move them.
 */
export function resolveInPackage(pkg: PackageRecord, path: string): { real: string; within: Within } {
  const label = `${pkg.name}@${pkg.version}`;
  const bounds = packageBounds(pkg);
  if (isAbsolute(path))
    throw new PkgLocalError(`${path}: give a path relative to the package`, `read_package {package: "${pkg.name}"} lists its files`);
  const entries = packageEntries(pkg);
  const joined = inOwnEntry(pkg, join(pkg.root, normalize(path)), entries);
  if (joined === undefined) throw new PkgLocalError(`${path}: outside ${label}`, "only the package's own files can be read");
  const real = realpathOf(joined);
  if (!real) {
    throw new PkgLocalError(`${path}: no such file in ${label}`, `read_package {package: "${pkg.name}"} lists its files`);
  }
  if (!isWithin(real, bounds)) throw leadsOutside(pkg, path);
  return { real, within: withinBounds(bounds) };
}
