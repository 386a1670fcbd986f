// Replaces a file's content atomically: a temporary file created O_EXCL|O_NOFOLLOW beside it in
// its held directory, then rename(2) within that directory, so readers see the old or the new
// content, never half. rename replaces the directory entry itself and never follows a symlink; the
// file's permission bits (and, where allowed, owner) are kept, set through the open descriptor.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, rename, unlink, writeFile } from "node:fs/promises";
import type { Held } from "./confine.js";

/** Mode of a new file: rw for everyone the umask allows, like `touch`. */
const NEW_FILE_MODE = 0o666;

/** What a replaced file keeps of the one it replaces. */
export interface Kept {
  mode: number;
  uid: number;
  gid: number;
}

export async function writeAtomically(target: Held, data: Uint8Array | string, keep?: Kept): Promise<void> {
  const temp = `${target.dirAt}/.${target.name.slice(0, 200)}.${randomBytes(6).toString("hex")}.nixshed-tmp`;
  const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, NEW_FILE_MODE);
  try {
    try {
      await writeFile(file, data);
      if (keep) {
        // Only root may give a file away; anyone else keeps their own files theirs anyway.
        await file.chown(keep.uid, keep.gid).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "EPERM") throw error;
        });
        await file.chmod(keep.mode);
      }
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(temp, target.at);
  } catch (error) {
    await unlink(temp).catch(() => {}); // Best-effort cleanup: the write's own error is the one reported, just below.
    throw error;
  }
}
