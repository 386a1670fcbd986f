// Writing in a directory that may hold what someone else planted there: a state or cache directory
// restored from elsewhere (a CI cache a pull request filled, SECURITY.md §3). A link planted at the
// name, or at a temporary name beside it, is never written through (it could point at ~/.bashrc),
// and a FIFO is never waited on (the daemon would hang at start).
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";

const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Replaces `path` with `data`, atomically: a temporary file of a name nobody can guess, created new beside it (O_EXCL,
 * no link followed), then rename(2), which replaces the entry itself, whatever it is. On failure the temporary goes.
 */
export function replaceFile(path: string, data: string | Uint8Array, mode = 0o666): void {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Appends `data` to the regular file at `path`, made if absent; throws where a link (ELOOP), a FIFO (ENXIO) or anything else is. */
export function appendToFile(path: string, data: string): void {
  const fd = openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o666);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
}
