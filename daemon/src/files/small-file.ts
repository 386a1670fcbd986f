// A small file another program wrote, or one a project could have planted (its .nixshed.toml, a
// package's METADATA or package.json, pyvenv.cfg), read without trusting its type or size: a FIFO would hold the whole
// server in open(2), a link to /dev/zero never end, a sparse file of gigabytes fill the memory.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { isAbsent } from "./absence.js";
import { openedWithin, type Within } from "./descriptor-path.js";

/** Most bytes read of one such file: far more than any manifest or metadata file holds. */
const MAX_BYTES = 16 * 1024 * 1024;

/** Open does not wait for a FIFO's writer, nor take a terminal as the server's. */
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A file that is there but is no regular file, or is too large, to read; `reason` says which. */
export class UnreadableFile extends Error {
  constructor(
    path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export interface SmallFileOptions {
  /** Only the first bytes, however large the file. */
  head?: number;
  /** Most bytes of a whole file (default MAX_BYTES). */
  maxBytes?: number;
  /** A symlink as the last part of the path is no file (ELOOP), as git takes a .gitignore that is one. */
  noFollow?: boolean;
  /** Where the file must really lie once open (descriptor-path.ts). */
  within?: Within;
}

/**
 * The text of the regular file at `path` (through symlinks unless `noFollow`): all of it, or its first `head` bytes;
 * undefined when there is none. A FIFO, device or socket, a file over `maxBytes`, or one opened outside `within`, is an
 * UnreadableFile; other errors (permission denied, a symlink loop) are thrown as they are.
 */
export function readSmallText(path: string, { head, maxBytes = MAX_BYTES, noFollow, within }: SmallFileOptions = {}): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, noFollow ? FLAGS | constants.O_NOFOLLOW : FLAGS);
  } catch (error) {
    if (isAbsent(error)) return undefined;
    // A socket cannot be opened at all.
    if ((error as NodeJS.ErrnoException).code === "ENXIO") throw new UnreadableFile(path, "not a regular file");
    throw error;
  }
  try {
    if (!openedWithin(fd, within)) throw new UnreadableFile(path, "leads outside where it must lie");
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UnreadableFile(path, "not a regular file");
    if (head === undefined && stats.size > maxBytes) throw new UnreadableFile(path, `over ${maxBytes} bytes`);
    // What the file holds now, never more: it may grow while it is read.
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, head ?? stats.size));
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.toString("utf8", 0, filled);
  } finally {
    closeSync(fd);
  }
}

/** readSmallText for a file a project may have planted: one it cannot be read as, a symlink loop included, is no file at all. */
export function readPlantedText(path: string, options: SmallFileOptions = {}): string | undefined {
  try {
    return readSmallText(path, options);
  } catch (error) {
    if (error instanceof UnreadableFile || (error as NodeJS.ErrnoException).code === "ELOOP") return undefined;
    throw error;
  }
}
