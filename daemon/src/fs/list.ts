// list_files: one directory (opendir) or a tree (ripgrep --files, which honours .gitignore and
// globs and never follows symlinks). Entries come sorted and capped, with the count left out; the
// whole listing is kept, when the caller can keep it, for the agent to page.
import type { Dirent } from "node:fs";
import { lstat, opendir } from "node:fs/promises";
import { join, sep } from "node:path";
import { withDirectory, type Confinement } from "./confine.js";
import { FsError } from "./errors.js";
import { globWithin, missingPathHint } from "./glob.js";
import { oneLine } from "./one-line.js";
import { lineBytes, type Kept } from "../mcp/response-budget.js";
import { MAX_RG_PATTERN_BYTES, patternBytesOver, ripgrep, type RipgrepOptions } from "./ripgrep.js";
import { gitIgnored } from "./git-ignored.js";

export type EntryType = "file" | "directory" | "symlink" | "other";

export interface ListEntry {
  path: string;
  type: EntryType;
  size?: number;
  mtime?: string;
  /** A directory shown in place of what it holds (past max_depth, or by the cap): how many files are below it. */
  files?: number;
}

/** An entry as found, before it is described: its name below the listed directory. */
export interface Found {
  name: string;
  type: EntryType;
  files?: number;
}

export interface ListRequest {
  path?: string;
  recursive?: boolean;
  maxDepth?: number;
  glob?: string;
  includeIgnored?: boolean;
  includeStats?: boolean;
}

export interface ListResult {
  path: string;
  entries: ListEntry[];
  /** Entries beyond the cap, not returned. */
  more: number;
  /** Where every entry is listed, one per line as shownName gives it, when some were left out. */
  all?: string;
  /** Entries `all` lists, when some directories stand for what they hold (foldDensest): `entries` are then no first page of it. */
  total?: number;
}

/** An entry as a listing shows it, on one line: a directory with a trailing /, a symlink with @. */
export const shownName = (entry: { path: string; type: EntryType }): string =>
  oneLine(entry.type === "directory" ? `${entry.path}/` : entry.type === "symlink" ? `${entry.path}@` : entry.path);

/** An entry's line in a listing's text: its name (and the files below it, not listed), then size and mtime when asked for. */
export const listingLine = (entry: ListEntry): string => {
  const name = entry.files === undefined ? shownName(entry) : `${shownName(entry)} (${entry.files} file${entry.files === 1 ? "" : "s"})`;
  return entry.size === undefined ? name : `${name}\t${entry.size}\t${entry.mtime}`;
};

/** The entries whose lines fit `maxBytes`, at least one. */
function withinBytes(entries: ListEntry[], maxBytes: number): ListEntry[] {
  let used = 0;
  for (const [i, entry] of entries.entries()) {
    used += lineBytes(listingLine(entry));
    if (used > maxBytes) return entries.slice(0, Math.max(i, 1));
  }
  return entries;
}

/** The entry type of a Dirent or an lstat result. */
export const typeOf = (entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType =>
  entry.isFile() ? "file" : entry.isDirectory() ? "directory" : entry.isSymbolicLink() ? "symlink" : "other";

/** One level of `dir`; `root` is the served root holding it (held), whose .gitignore files count too, and the way below it to `dir`. */
async function listDirectory(
  dir: string,
  root: { path: string; below: string },
  request: ListRequest,
  signal: AbortSignal,
): Promise<Found[]> {
  const dirents: Dirent[] = [];
  let chars = 0;
  for await (const dirent of await opendir(dir)) {
    if (dirent.name === ".git") continue;
    chars += dirent.name.length;
    refuseOver(dirents.length + 1, chars, "give a glob, which lists only the names it matches");
    dirents.push(dirent);
  }
  const ignored = request.includeIgnored
    ? new Set<string>()
    : await gitIgnored(
        root,
        dirents.map((dirent) => ({ name: dirent.name, directory: dirent.isDirectory() })),
        signal,
      );
  let shown = dirents.filter((dirent) => !ignored.has(dirent.name));
  // A directory .gitignore excludes whole (node_modules/, dist/) hides all it holds: named, it is listed as it is.
  if (shown.length === 0 && dirents.length > 0 && root.below !== "" && (await excludedWhole(root, signal))) shown = dirents;
  return shown.map((dirent) => ({ name: dirent.name, type: typeOf(dirent) }));
}

/** Whether .gitignore excludes the directory `root.below` itself (or one above it), as seen from its parent. */
async function excludedWhole(root: { path: string; below: string }, signal: AbortSignal): Promise<boolean> {
  const cut = root.below.lastIndexOf(sep);
  const parent = { path: root.path, below: cut < 0 ? "" : root.below.slice(0, cut) };
  const name = root.below.slice(cut + 1);
  return (await gitIgnored(parent, [{ name, directory: true }], signal)).size > 0;
}

/**
 * Most files, and characters of their names, a listing holds to fold and sort them: 300,000 names of 1.4 KB once held
 * 1.3 GB of the daemon for one call (and a directory of a million names 1.55 GB). Past them it stops, asking for what
 * holds only what it shows.
 */
const MAX_TREE_FILES = 500_000;
const MAX_TREE_CHARS = 64 << 20;

function refuseOver(names: number, chars: number, hint: string): void {
  if (names <= MAX_TREE_FILES && chars <= MAX_TREE_CHARS) return;
  throw new FsError(
    `over ${chars > MAX_TREE_CHARS ? `${MAX_TREE_CHARS >> 20} MiB of file names` : `${MAX_TREE_FILES} files`} to list`,
    hint,
  );
}

/**
 * The files of the tree (ripgrep lists files only); past max_depth, the directory at that depth holding
 * them, with their count: a depth-limited listing shows where the code is (src/app/ under src/), not
 * only the files near the top.
 */
async function listTree(dir: string, jail: RipgrepOptions["jail"], request: ListRequest, signal: AbortSignal): Promise<Found[]> {
  const args = ["--files", "--null", "--hidden", "--no-require-git", "--glob", "!.git"];
  if (request.includeIgnored) args.push("--no-ignore");
  if (request.glob) args.push("--glob", request.glob);
  const found: Found[] = [];
  const below = new Map<string, number>();
  const depth = request.maxDepth ?? Number.POSITIVE_INFINITY;
  let chars = 0;
  // Every name held counts, a file's or a directory's that max_depth shows for those below it.
  const hold = (name: string) => {
    chars += name.length;
    refuseOver(
      found.length + below.size,
      chars,
      request.maxDepth === undefined
        ? "give max_depth (it counts the files below each directory it shows), a narrower path or a glob"
        : "give a smaller max_depth, a narrower path or a glob",
    );
  };
  for await (const name of ripgrep(args, { cwd: dir, jail, signal, separator: "\0" })) {
    const parts = name.split("/");
    if (parts.length <= depth) {
      found.push({ name, type: "file" });
      hold(name);
    } else {
      const at = parts.slice(0, depth).join("/");
      const files = below.get(at);
      below.set(at, (files ?? 0) + 1);
      if (files === undefined) hold(at);
    }
  }
  for (const [name, files] of below) found.push({ name, type: "directory", files });
  return found;
}

/** Folds chosen one by one before a tree over the cap is cut at a depth instead (many small directories). */
const MAX_FOLDS = 16;

/**
 * A tree over the cap, its densest directories shown in place of what they hold until it fits: of
 * those whose folding would be enough, the smallest (data/many/, not data/); else the largest, and
 * again. A project's 3,000 fixtures then cost a line, and its code stays listed. The tree is shown to the
 * deepest level that fits instead where that shows more (many small directories, which no few folds bring under the cap).
 */
export function foldDensest(found: Found[], cap: number): Found[] {
  if (found.length <= cap) return found;
  // Per directory, once: the entries below it, and the files they stand for.
  const below = new Map<string, { entries: number; files: number }>();
  // Per depth: the entries that deep, and the directories that deep holding deeper ones; so, what a listing to each depth shows.
  const entriesAt: number[] = [];
  const dirsAt: number[] = [];
  for (const entry of found) {
    let depth = 1;
    for (let cut = entry.name.indexOf("/"); cut >= 0; cut = entry.name.indexOf("/", cut + 1), depth++) {
      const dir = entry.name.slice(0, cut);
      const counted = below.get(dir);
      if (counted) {
        counted.entries++;
        counted.files += entry.files ?? 1;
      } else {
        below.set(dir, { entries: 1, files: entry.files ?? 1 });
        dirsAt[depth] = (dirsAt[depth] ?? 0) + 1;
      }
    }
    entriesAt[depth] = (entriesAt[depth] ?? 0) + 1;
  }
  // The deepest level whose listing fits, else the top; and how many entries that listing shows.
  let [level, levelShows] = [1, 0];
  for (let depth = 1, upTo = 0; depth < entriesAt.length; depth++) {
    upTo += entriesAt[depth] ?? 0;
    const shows = upTo + (dirsAt[depth] ?? 0);
    if (depth > 1 && shows > cap) break;
    [level, levelShows] = [depth, shows];
  }
  const folded = new Map<string, number>();
  let shown = found.length;
  for (let folds = 0; shown > cap && folds < MAX_FOLDS; folds++) {
    const excess = shown - cap;
    let enough: [string, number] | undefined;
    let largest: [string, number] | undefined;
    for (const [dir, counted] of below) {
      if (counted.entries < 2) continue;
      if (counted.entries - 1 >= excess && (!enough || counted.entries < enough[1])) enough = [dir, counted.entries];
      if (!largest || counted.entries > largest[1]) largest = [dir, counted.entries];
    }
    const chosen = enough ?? largest;
    if (!chosen) break;
    const [dir, entries] = chosen;
    folded.set(dir, below.get(dir)!.files);
    shown -= entries - 1;
    // What is below it is gone from the listing; what is above it holds one entry for it now.
    const inside = `${dir}/`;
    for (const other of [...below.keys()]) if (other === dir || other.startsWith(inside)) below.delete(other);
    for (let cut = dir.lastIndexOf("/"); cut >= 0; cut = dir.lastIndexOf("/", cut - 1))
      below.get(dir.slice(0, cut))!.entries -= entries - 1;
  }
  // The tree to a depth instead, where that shows more within the cap (a package of many small modules), or where folding did not fit.
  if (shown > cap || (levelShows > shown && levelShows <= cap)) return toDepth(found, level);
  const isFolded = (name: string) => {
    for (let cut = name.indexOf("/"); cut >= 0; cut = name.indexOf("/", cut + 1)) if (folded.has(name.slice(0, cut))) return true;
    return false;
  };
  return [
    ...found.filter((entry) => !isFolded(entry.name)),
    ...[...folded].map(([name, files]): Found => ({ name, type: "directory", files })),
  ];
}

/** The entries as a listing to `depth`: a directory there stands for what it holds. */
function toDepth(entries: Found[], depth: number): Found[] {
  const kept: Found[] = [];
  const dirs = new Map<string, number>();
  for (const entry of entries) {
    const parts = entry.name.split("/");
    if (parts.length <= depth) kept.push(entry);
    else {
      const dir = parts.slice(0, depth).join("/");
      dirs.set(dir, (dirs.get(dir) ?? 0) + (entry.files ?? 1));
    }
  }
  return [...kept, ...[...dirs].map(([name, files]): Found => ({ name, type: "directory", files }))];
}

/**
 * At most `limit.entries` entries, and as many as fit `limit.bytes` of text; `keep` stores the whole
 * listing when the caps leave entries out.
 */
export async function listFiles(
  confinement: Confinement,
  request: ListRequest,
  limit: { entries: number; bytes: number },
  signal: AbortSignal,
  keep?: (text: string) => Promise<Kept>,
): Promise<ListResult> {
  const input = request.path ?? ".";
  if (request.glob?.includes("\0")) throw new FsError("glob has a NUL character, which rg cannot take");
  const globBytes = patternBytesOver(request.glob);
  if (globBytes) throw new FsError(`glob is ${globBytes} bytes, over the ${MAX_RG_PATTERN_BYTES} a listing takes`, "give a shorter glob");
  return confinement.hold(input, "follow", async (dir) => {
    if (!dir.exists) throw new FsError(`${input}: no such directory`, missingPathHint(input, "list its parent to see what exists"));
    if (!(await lstat(dir.at)).isDirectory()) throw new FsError(`${input}: not a directory`, "use stat_items or read_content for a file");
    const tree = request.recursive || request.glob !== undefined || (request.maxDepth ?? 1) > 1;
    const glob = request.glob === undefined ? undefined : globWithin(confinement, request.glob, dir.real);
    const found = await withDirectory(dir.at, input, (held) =>
      confinement.withRootOf(dir.real, input, (root) =>
        tree
          ? listTree(held, root, { ...request, glob }, signal)
          : // The root as the daemon holds it: git, another process, reaches it through this one's descriptors.
            listDirectory(held, { path: `/proc/${process.pid}/fd/${root.rootFd}`, below: root.below }, request, signal),
      ),
    );
    const byName = (a: Found, b: Found) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    found.sort(byName);
    const shown = tree ? foldDensest(found, limit.entries).sort(byName) : found;
    const kept = shown.slice(0, limit.entries);
    const described = await Promise.all(
      kept.map(async ({ name, type, files }): Promise<ListEntry> => {
        const real = join(dir.real, name);
        const entry: ListEntry = { path: confinement.shown(real), type, ...(files === undefined ? {} : { files }) };
        if (!request.includeStats) return entry;
        const stats = await confinement.hold(real, "entry", (held) => lstat(held.at)).catch(() => undefined);
        return stats ? { ...entry, size: stats.size, mtime: stats.mtime.toISOString() } : entry;
      }),
    );
    const entries = withinBytes(described, limit.bytes);
    const result: ListResult = { path: confinement.shown(dir.real), entries, more: shown.length - entries.length };
    const folded = shown !== found;
    if ((result.more === 0 && !folded) || !keep) return result;
    const whole = await keep(
      found.map(({ name, type }) => `${shownName({ path: confinement.shown(join(dir.real, name)), type })}\n`).join(""),
    );
    if (!("path" in whole)) return result;
    return { ...result, all: whole.path, ...(folded ? { total: found.length } : {}) };
  });
}
