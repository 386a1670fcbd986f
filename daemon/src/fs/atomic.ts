// Replaces a file's content atomically: a temporary file in the same directory, then rename(2),
// so readers see the old or the new content, never half. rename replaces the directory entry
// itself and never follows a symlink; the file's permission bits (and, where allowed, owner) are kept.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, chown, open, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Mode of a new file: rw for everyone the umask allows, like `touch`. */
const NEW_FILE_MODE = 0o666;

/** What a replaced file keeps of the one it replaces. */
export interface Kept {
  mode: number;
  uid: number;
  gid: number;
}

export async function writeAtomically(real: string, data: Uint8Array | string | AsyncIterable<Uint8Array>, keep?: Kept): Promise<void> {
  const temp = join(dirname(real), `.${basename(real).slice(0, 200)}.${randomBytes(6).toString("hex")}.nixshed-tmp`);
  const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, NEW_FILE_MODE);
  try {
    try {
      await writeFile(file, data);
      if (keep) {
        // Only root may give a file away; anyone else keeps their own files theirs anyway.
        await chown(temp, keep.uid, keep.gid).catch(() => {});
        await chmod(temp, keep.mode);
      }
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(temp, real);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
