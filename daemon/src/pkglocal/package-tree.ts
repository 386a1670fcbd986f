// The files of a package worth reading, by language: Python's .py/.pyi and distribution metadata,
// Node's .js/.mjs/.cjs/.ts/.d.ts and package.json; caches and build junk are skipped. Counted in
// full up to a walk limit, listed up to a cap, breadth first so the top of the package comes first.
import { closeSync, constants, type Dirent, lstatSync, openSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { unlessAbsent } from "../files/absence.js";
import { FD_DIR, openedWithin, type Within } from "../files/descriptor-path.js";
import { isWithin, packageBounds, withinBounds } from "./package-confine.js";
import { DISTRIBUTION_INFO, isDirectory, realpathOf } from "./quiet-fs.js";
import type { Language, PackageRecord } from "./types.js";

export interface PackageTree {
  files: { path: string; bytes: number }[];
  /** Files of each kind found (".py", ".d.ts", "metadata", …), listed or not. */
  counts: Record<string, number>;
  /** Matching files found; more than files.length when the cap cut the list. */
  total: number;
  /** Files of other kinds (assets, docs, data), only counted. */
  other: number;
  /** True when the walk stopped at its limit: the counts are a lower bound. */
  incomplete: boolean;
}

/** Entries visited at most, however large the package: a limit, so a call stays fast. */
const MAX_VISITED = 20000;

const JUNK = new Set([
  "node_modules",
  "__pycache__",
  ".git",
  ".hg",
  ".svn",
  ".cache",
  ".turbo",
  ".next",
  ".nyc_output",
  "coverage",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  ".nox",
  ".venv",
  "venv",
  ".idea",
  ".vscode",
]);
/** Python's build junk; Node packages often ship their real code in build/. */
const PYTHON_JUNK = new Set(["build", ".eggs", "htmlcov"]);
export const README = /^readme(\.(md|rst|txt|markdown))?$/i;

function kindOf(language: Language, name: string, inMetadataDir: boolean): string | undefined {
  if (README.test(name)) return "readme";
  if (language === "python") {
    if (inMetadataDir) return "metadata";
    if (name.endsWith(".pyi")) return ".pyi";
    if (name.endsWith(".py")) return ".py";
    if (["py.typed", "pyproject.toml", "setup.cfg"].includes(name)) return "metadata";
    return undefined;
  }
  if (name === "package.json") return "package.json";
  const match = /(\.d\.[mc]?ts|\.[mc]?[jt]sx?)$/.exec(name);
  return match ? match[1] : undefined;
}

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK;

/**
 * Runs `use` with a path to `dir` through a descriptor that must still lie `within` the package once open
 * (descriptor-path.ts): a directory swapped for a symlink since the walk checked it gives undefined, as one gone does.
 */
function inDirectory<T>(dir: string, within: Within, use: (at: string) => T): T | undefined {
  const fd = unlessAbsent(() => openSync(dir, DIRECTORY_FLAGS), undefined);
  if (fd === undefined) return undefined;
  try {
    return openedWithin(fd, within) ? use(FD_DIR ? `${FD_DIR}/${fd}` : dir) : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Lists a directory the walk checked (inDirectory): `list` gets its entries and their sizes, read through the same
 * descriptor, and returns whether the walk goes on; so does this. One outside or gone lists nothing.
 */
function listWithin(dir: string, within: Within, list: (entries: Dirent[], sizeOf: (name: string) => number) => boolean): boolean {
  return (
    inDirectory(dir, within, (at) =>
      list(
        unlessAbsent(() => readdirSync(at, { withFileTypes: true }), []),
        (name) => unlessAbsent(() => lstatSync(`${at}/${name}`).size, 0),
      ),
    ) ?? true
  );
}

/** The size of the regular file at a checked path, read through its directory's descriptor; undefined when that leads outside, or it is gone or no file. */
function fileSizeWithin(path: string, within: Within): number | undefined {
  return inDirectory(dirname(path), within, (at) => {
    const stats = unlessAbsent(() => lstatSync(`${at}/${basename(path)}`), undefined);
    return stats?.isFile() ? stats.size : undefined;
  });
}

/** The package's files, or (`under`: a directory of it, as its tree names it) those below that directory. */
export function packageTree(pkg: PackageRecord, maxFiles: number, under?: string): PackageTree {
  const tree: PackageTree = { files: [], counts: {}, total: 0, other: 0, incomplete: false };
  const bounds = packageBounds(pkg);
  const starts =
    under !== undefined
      ? [{ shown: under, real: join(pkg.root, under) }]
      : pkg.members
        ? pkg.members.map((member) => ({ shown: member, real: join(pkg.root, member) }))
        : [{ shown: "", real: pkg.root }];
  const queue: { shown: string; real: string; metadata: boolean }[] = [];
  let visited = 0;
  const within = withinBounds(bounds);
  const consider = (shown: string, name: string, metadata: boolean, bytes: () => number) => {
    const kind = kindOf(pkg.language, name, metadata);
    if (!kind) {
      tree.other++;
      return;
    }
    tree.counts[kind] = (tree.counts[kind] ?? 0) + 1;
    tree.total++;
    if (tree.files.length < maxFiles) tree.files.push({ path: shown, bytes: bytes() });
  };
  // A file reached by a checked real path (a member, a symlink's target) is listed while it still lies in the package.
  const listFile = (shown: string, name: string, metadata: boolean, real: string) => {
    const bytes = fileSizeWithin(real, within);
    if (bytes !== undefined) consider(shown, name, metadata, () => bytes);
  };
  for (const start of starts) {
    const real = realpathOf(start.real);
    if (!real || !isWithin(real, bounds)) continue;
    const metadata = DISTRIBUTION_INFO.test(start.shown);
    if (isDirectory(real)) queue.push({ shown: start.shown, real, metadata });
    else listFile(start.shown, basename(start.shown), false, real);
  }
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    const listed = listWithin(dir.real, within, (entries, sizeOfEntry) => {
      for (const entry of entries) {
        if (++visited > MAX_VISITED) return false;
        const shown = dir.shown ? `${dir.shown}/${entry.name}` : entry.name;
        const real = join(dir.real, entry.name);
        if (entry.isDirectory()) {
          if (!JUNK.has(entry.name) && !(pkg.language === "python" && PYTHON_JUNK.has(entry.name))) {
            queue.push({ shown, real, metadata: dir.metadata || DISTRIBUTION_INFO.test(entry.name) });
          }
        } else if (entry.isFile()) {
          consider(shown, entry.name, dir.metadata, () => sizeOfEntry(entry.name));
        } else if (entry.isSymbolicLink()) {
          // Listed only when it stays inside the package, as read_package would allow it.
          const target = realpathOf(real);
          if (target && isWithin(target, bounds)) listFile(shown, entry.name, dir.metadata, target);
        }
      }
      return true;
    });
    if (!listed) {
      tree.incomplete = true;
      return tree;
    }
  }
  tree.files.sort((a, b) => a.path.localeCompare(b.path));
  return tree;
}
