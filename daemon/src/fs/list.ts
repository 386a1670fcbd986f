// list_files: one directory (readdir) or a tree (ripgrep --files, which honours .gitignore and
// globs and never follows symlinks). Entries come sorted and capped, with the count left out; the
// whole listing is kept, when the caller can keep it, for the agent to page.
import { lstat, readdir } from "node:fs/promises";
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
}

/** An entry as a listing shows it, on one line: a directory with a trailing /, a symlink with @. */
export const shownName = (entry: { path: string; type: EntryType }): string =>
  oneLine(entry.type === "directory" ? `${entry.path}/` : entry.type === "symlink" ? `${entry.path}@` : entry.path);

/** An entry's line in a listing's text: its name, then size and mtime when asked for. */
export const listingLine = (entry: ListEntry): string =>
  entry.size === undefined ? shownName(entry) : `${shownName(entry)}\t${entry.size}\t${entry.mtime}`;

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
): Promise<{ name: string; type: EntryType }[]> {
  const dirents = (await readdir(dir, { withFileTypes: true })).filter((dirent) => dirent.name !== ".git");
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

async function listTree(
  dir: string,
  jail: RipgrepOptions["jail"],
  request: ListRequest,
  signal: AbortSignal,
): Promise<{ name: string; type: EntryType }[]> {
  const args = ["--files", "--null", "--hidden", "--no-require-git", "--glob", "!.git"];
  if (request.includeIgnored) args.push("--no-ignore");
  if (request.maxDepth !== undefined) args.push("--max-depth", String(request.maxDepth));
  if (request.glob) args.push("--glob", request.glob);
  const files: { name: string; type: EntryType }[] = [];
  for await (const name of ripgrep(args, { cwd: dir, jail, signal, separator: "\0" })) files.push({ name, type: "file" });
  return files;
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
    found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const kept = found.slice(0, limit.entries);
    const described = await Promise.all(
      kept.map(async ({ name, type }): Promise<ListEntry> => {
        const real = join(dir.real, name);
        const entry: ListEntry = { path: confinement.shown(real), type };
        if (!request.includeStats) return entry;
        const stats = await confinement.hold(real, "entry", (held) => lstat(held.at)).catch(() => undefined);
        return stats ? { ...entry, size: stats.size, mtime: stats.mtime.toISOString() } : entry;
      }),
    );
    const entries = withinBytes(described, limit.bytes);
    const result: ListResult = { path: confinement.shown(dir.real), entries, more: found.length - entries.length };
    if (result.more === 0 || !keep) return result;
    const whole = await keep(
      found.map(({ name, type }) => `${shownName({ path: confinement.shown(join(dir.real, name)), type })}\n`).join(""),
    );
    return "path" in whole ? { ...result, all: whole.path } : result;
  });
}
