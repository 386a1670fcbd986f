// Where a program is found as a shell finds it: the first directory of PATH that has it.
import { realpathSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The program's real path on PATH, or undefined when no directory of it has the program. */
export function onPath(program: string, path = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      return realpathSync(join(dir, program));
    } catch {
      // Not in this directory (or not readable there): the next one is tried.
    }
  }
  return undefined;
}
