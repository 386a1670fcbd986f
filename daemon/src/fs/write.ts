// write_content and create_directories. Targets are resolved as entries (never followed): a
// symlink at the target is refused rather than written through.
import { createReadStream } from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { writeAtomically, type Kept } from "./atomic.js";
import type { Confinement } from "./confine.js";
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

/** The existing regular file at `real`, or undefined when there is none. */
export async function existingFile(real: string, input: string): Promise<ExistingFile | undefined> {
  const stats = await lstat(real).catch(() => undefined);
  if (!stats) return undefined;
  if (stats.isSymbolicLink()) throw new FsError(`${input}: is a symlink; nixshed never writes through one`, "write to the file it points to instead");
  if (stats.isDirectory()) throw new FsError(`${input}: is a directory`);
  if (!stats.isFile()) throw new FsError(`${input}: not a regular file`);
  return { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid, size: stats.size };
}

/** The file's content, then `content`: streamed, so appending to a large file never holds it in memory. */
async function* appended(real: string, content: string): AsyncIterable<Uint8Array> {
  yield* createReadStream(real);
  yield Buffer.from(content);
}

async function writeOne(confinement: Confinement, item: WriteItem, maxBytes: number): Promise<WriteOutcome> {
  const size = Buffer.byteLength(item.content);
  if (size > maxBytes) throw new FsError(`${item.path}: content is ${size} bytes, over the ${maxBytes}-byte limit (fs.max_write_bytes)`, "split it into several appends");
  const target = await confinement.resolve(item.path, "entry");
  const existing = target.exists ? await existingFile(target.real, item.path) : undefined;
  await mkdir(dirname(target.real), { recursive: true });
  const append = item.append && existing;
  await writeAtomically(target.real, append ? appended(target.real, item.content) : item.content, existing);
  return { path: confinement.shown(target.real), bytes: append ? existing.size + size : size, created: !existing };
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
  const target = await confinement.resolve(path, "entry");
  if (target.exists) {
    if (!(await lstat(target.real)).isDirectory()) throw new FsError(`${path}: exists and is not a directory`);
    return { path: confinement.shown(target.real), created: false };
  }
  await mkdir(target.real, { recursive: true });
  return { path: confinement.shown(target.real), created: true };
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
