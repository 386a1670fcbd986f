// Where a program is found as a shell finds it: the first directory of PATH that has it. Only PATH's
// absolute directories count: an empty or relative entry (a leading ':' in a profile, '.') means the
// working directory, which is often the project, and the host runs nothing a project put there. The
// CLI drops those entries from PATH before anything runs (absoluteDirs), so that every program the
// host starts, and every program those start (nix's git, bwrap's true), is looked up the same way.
import { realpathSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** PATH with its absolute directories only. */
export function absoluteDirs(path: string): string {
  return path
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .join(delimiter);
}

/** The program's real path on PATH, or undefined when no directory of it has the program. */
export function onPath(program: string, path = process.env.PATH ?? ""): string | undefined {
  for (const dir of absoluteDirs(path).split(delimiter)) {
    try {
      return realpathSync(join(dir, program));
    } catch {
      // Not in this directory (or not readable there): the next one is tried.
    }
  }
  return undefined;
}
