// write_content and create_directories. Targets are held as entries (never followed): a symlink at
// the target is refused rather than written through, and missing parents are created one by one
// inside the held directories.
import { constants } from "node:fs";
import { lstat, open, writeFile } from "node:fs/promises";
import { writeAtomically, type Kept } from "./atomic.js";
import type { Confinement, Held } from "./confine.js";
import { FsError } from "./errors.js";
import { eachItem } from "./items.js";

export interface WriteItem {
  path: string;
  content: string;
  append?: boolean;
}

export interface WriteOutcome {
  path: string;
  bytes?: number;
  created?: boolean;
  error?: string;
}

/** An existing regular file: what a replacement keeps of it, and its size. */
export interface ExistingFile extends Kept {
  size: number;
}

/** The existing regular file at a held entry, or undefined when there is none. */
export async function existingFile(target: Held, input: string): Promise<ExistingFile | undefined> {
  if (!target.exists) return undefined;
  const stats = await lstat(target.at).catch(() => undefined);
  if (!stats) return undefined;
  if (stats.isSymbolicLink())
    throw new FsError(`${input}: is a symlink; nixshed never writes through one`, "write to the file it points to instead");
  if (stats.isDirectory()) throw new FsError(`${input}: is a directory`, "name a file in it (list_files shows what it holds)");
  if (!stats.isFile()) throw new FsError(`${input}: not a regular file`);
  // Not its set-user-ID or set-group-ID bit: new content under root's owner and such a bit is a program anybody runs as root.
  return { mode: stats.mode & 0o1777, uid: stats.uid, gid: stats.gid, size: stats.size };
}

/** Opens a held regular file (for reading, unless `flags` say otherwise), no-follow, checked after the open: it, and what the check saw. */
export async function openExisting(target: Held, input: string, flags: number = constants.O_RDONLY) {
  const file = await open(target.at, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  const stats = await file.stat();
  if (!stats.isFile()) {
    await file.close();
    throw new FsError(`${input}: not a regular file`);
  }
  return { file, stats };
}

/**
 * Appends in place, as `>>` does, and says the file's new size: an append copies nothing (a copy made a sparse 3 GB
 * file take 3 GB of disk, written past the call's timeout). Opened no-follow and checked after the open. A file with
 * other hard links is refused (writing would change them too), and a set-user-ID or set-group-ID bit is dropped, as a
 * replacement drops it. One that fails midway is undone.
 */
async function appendInPlace(target: Held, input: string, content: string): Promise<number> {
  const { file, stats } = await openExisting(target, input, constants.O_WRONLY | constants.O_APPEND);
  try {
    if (stats.nlink > 1)
      throw new FsError(`${input}: has other hard links, which an append would change too`, "write its whole content instead");
    if (stats.mode & 0o6000) await file.chmod(stats.mode & 0o1777);
    try {
      await writeFile(file, content);
      await file.datasync();
    } catch (error) {
      // A full disk or a file size limit stopped it midway: the file goes back to what it was, not half an append.
      await file.truncate(stats.size).catch(() => {});
      throw error;
    }
    return stats.size + Buffer.byteLength(content);
  } finally {
    await file.close();
  }
}

async function writeOne(confinement: Confinement, item: WriteItem, maxBytes: number): Promise<WriteOutcome> {
  const size = Buffer.byteLength(item.content);
  if (size > maxBytes)
    throw new FsError(
      `${item.path}: content is ${size} bytes, over the ${maxBytes}-byte limit (fs.max_write_bytes)`,
      "split it into several appends",
    );
  return confinement.hold(
    item.path,
    "entry",
    async (target) => {
      confinement.refuseProtected(target.real, item.path);
      const existing = await existingFile(target, item.path);
      if (item.append && existing)
        return { path: confinement.shown(target.real), bytes: await appendInPlace(target, item.path, item.content), created: false };
      await writeAtomically(target, item.content, existing);
      return { path: confinement.shown(target.real), bytes: size, created: !existing };
    },
    { create: "parents" },
  );
}

export function writeContent(confinement: Confinement, items: WriteItem[], maxBytes: number, signal: AbortSignal): Promise<WriteOutcome[]> {
  return eachItem(
    items,
    signal,
    (item) => item.path,
    (item) => writeOne(confinement, item, maxBytes),
    (item, error) => ({ path: item.path, error }),
  );
}

export interface CreateOutcome {
  path: string;
  created?: boolean;
  error?: string;
}

async function createOne(confinement: Confinement, path: string): Promise<CreateOutcome> {
  return confinement.hold(
    path,
    "entry",
    async (target) => {
      confinement.refuseProtected(target.real, path);
      if (!target.exists || !(await lstat(target.at)).isDirectory()) throw new FsError(`${path}: exists and is not a directory`);
      return { path: confinement.shown(target.real), created: target.created ?? false };
    },
    { create: "all" },
  );
}

export function createDirectories(confinement: Confinement, paths: string[]): Promise<CreateOutcome[]> {
  return eachItem(
    paths,
    undefined,
    (path) => path,
    (path) => createOne(confinement, path),
    (path, error) => ({ path, error }),
  );
}
