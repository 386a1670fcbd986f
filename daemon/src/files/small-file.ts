// A small file another program wrote, or one a project could have planted (a package's METADATA or
// package.json, pyvenv.cfg), read without trusting its type or size. A FIFO would hold the whole
// server in open(2), a link to /dev/zero never end, a sparse file of gigabytes fill the memory, a
// symlink loop fail: each reads as no file at all, as a file that is not there does.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { isAbsent } from "./absence.js";

/** Most bytes read of one such file: far more than any manifest or metadata file holds. */
export const MAX_SMALL_FILE_BYTES = 16 * 1024 * 1024;

/** Open does not wait for a FIFO's writer, nor take a terminal as the server's. */
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * The text of the regular file at `path` (through symlinks): all of it, or its first `head` bytes when given;
 * undefined when there is none, it is no regular file, or it is over `maxBytes` (and no head is asked for).
 * Errors other than these (permission denied, I/O) are thrown.
 */
export function readSmallText(
  path: string,
  { maxBytes = MAX_SMALL_FILE_BYTES, head }: { maxBytes?: number; head?: number } = {},
): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    // ELOOP: a symlink loop; ENXIO: a socket.
    const code = (error as NodeJS.ErrnoException).code;
    if (isAbsent(error) || code === "ELOOP" || code === "ENXIO") return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || (head === undefined && stats.size > maxBytes)) return undefined;
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
