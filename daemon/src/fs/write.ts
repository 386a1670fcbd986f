// write_content and create_directories. Targets are held as entries (never followed): a symlink at
// the target is refused rather than written through, and missing parents are created one by one
// inside the held directories.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
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

/** Opens a held regular file for reading, no-follow, checked after the open. */
export async function openExisting(target: Held, input: string) {
  const file = await open(target.at, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  if (!(await file.stat()).isFile()) {
    await file.close();
    throw new FsError(`${input}: not a regular file`);
  }
  return file;
}

/** The file's content, then `content`: streamed, so appending to a large file never holds it in memory. */
async function* appended(target: Held, input: string, content: string): AsyncIterable<Uint8Array> {
  const file = await openExisting(target, input);
  try {
    yield* file.createReadStream({ autoClose: false });
  } finally {
    await file.close();
  }
  yield Buffer.from(content);
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
      const append = item.append && existing;
      await writeAtomically(target, append ? appended(target, item.path, item.content) : item.content, existing);
      return { path: confinement.shown(target.real), bytes: append ? existing.size + size : size, created: !existing };
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
