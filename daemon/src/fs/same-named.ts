// Where a file the agent named but that is not there might be: the project's files of that name, in
// any case, shortest path first. A "no such file" then says "did you mean src/lib/util.ts?" instead
// of leaving the agent to search (and edit_file's own hint, to create the file, to make a second one).
import { basename } from "node:path";
import type { Confinement } from "./confine.js";
import { FsError } from "./errors.js";
import { listFiles } from "./list.js";

/** Most paths named; and how long the look may take, on a call that failed anyway. */
const MAX_NAMED = 3;
const LOOK_MS = 2000;

/** The error for `path`, which does not exist: the files of its name it may mean (when `look`), else `otherwise`. */
export async function noSuchFile(confinement: Confinement, path: string, otherwise: string, look = true): Promise<FsError> {
  const named = look ? await sameNamed(confinement, path) : [];
  return new FsError(`${path}: no such file`, named.length > 0 ? `did you mean ${named.join(" or ")}?` : otherwise);
}

async function sameNamed(confinement: Confinement, path: string): Promise<string[]> {
  const name = basename(path);
  // A name that is a pattern itself (a comma too, which a glob here reads as a list), or none, names no file to look for.
  if (name === "" || /[*?[\]{}\\!,]/.test(name)) return [];
  const anyCase = name.replace(/[a-z]/gi, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`);
  try {
    const { entries } = await listFiles(confinement, { glob: `**/${anyCase}` }, { entries: 50, bytes: 8192 }, AbortSignal.timeout(LOOK_MS));
    // Files only: a directory the listing shows for what it holds (over its cap) names no file.
    return entries
      .filter((entry) => entry.type === "file")
      .map((entry) => entry.path)
      .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
      .slice(0, MAX_NAMED);
  } catch {
    return []; // No rg, a timeout: the plain hint.
  }
}
