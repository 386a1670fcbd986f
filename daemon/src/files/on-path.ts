// Where a program is found as a shell finds it: the first directory of PATH that has it. Only PATH's
// absolute directories count: an empty or relative entry (a leading ':' in a profile, '.') means the
// working directory, which is often the project, and the host runs nothing a project put there.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** The program's path in the first absolute directory of PATH that has it as an executable file; undefined when none has. */
export function programOnPath(program: string, path = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this directory (or not runnable there): the next one is tried.
    }
  }
  return undefined;
}

/** The program's real path on PATH (programOnPath, its links resolved), or undefined. */
export function onPath(program: string, path = process.env.PATH ?? ""): string | undefined {
  const found = programOnPath(program, path);
  return found === undefined ? undefined : realpathSync(found);
}

/** PATH with its absolute directories only, for every program the host starts and what those start (nix's git, bwrap's true). */
export function absoluteDirs(path: string): string {
  return path
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .join(delimiter);
}
