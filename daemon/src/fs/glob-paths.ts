// A glob given where a path goes ("src/app/*.py"), as an agent means it: the files it matches, when
// it names no file itself; at most MAX_GLOB_FILES of them, else one line saying so.
import type { Confinement } from "./confine.js";
import { FsError } from "./errors.js";
import { isGlobPath } from "./glob.js";
import { listFiles } from "./list.js";

/** Most files a glob given as a path reads. */
const MAX_GLOB_FILES = 20;

/** A path, or the files a glob given as one matches, where it names no file. */
export async function matchingFiles(confinement: Confinement, path: string, signal: AbortSignal): Promise<string[]> {
  if (!isGlobPath(path) || (await confinement.hold(path, "follow", async (held) => held.exists).catch(() => true))) return [path];
  const listed = await listFiles(
    confinement,
    { glob: path },
    { entries: MAX_GLOB_FILES + 1, bytes: Number.POSITIVE_INFINITY },
    signal,
  ).catch(() => undefined);
  if (listed === undefined) return [path];
  // Over the cap, the listing shows a directory for what it holds: its files count too.
  const matched = listed.more + listed.entries.reduce((sum, entry) => sum + (entry.files ?? 1), 0);
  if (matched > MAX_GLOB_FILES)
    throw new FsError(`${path}: the glob matches over ${MAX_GLOB_FILES} files`, "narrow it, or list_files it to see them");
  const files = listed.entries.map((entry) => entry.path);
  return files.length > 0 ? files : [path];
}
