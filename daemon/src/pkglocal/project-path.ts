// Paths around the project: shown relative to it when inside it, and the directories above it.
import { dirname, resolve } from "node:path";
import { isInside } from "../files/path-inside.js";

/**
 * Relative to the project when inside it, absolute otherwise. Both sides are absolute and
 * normalised (the project root is a realpath, the rest built by join), so a prefix test is exact;
 * path.relative costs more than the whole warm scan when called per package.
 */
export function shownPath(path: string, projectRoot: string): string {
  if (path === projectRoot) return ".";
  const prefix = projectRoot.endsWith("/") ? projectRoot : `${projectRoot}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The directories above the project, nearest first: where Node resolution and workspace roots look. */
export function ancestorsOf(projectRoot: string): string[] {
  const found: string[] = [];
  for (let dir = dirname(projectRoot); dir !== found.at(-1) && dir !== projectRoot; dir = dirname(dir)) found.push(dir);
  return found;
}

/**
 * A directory a project file names (a workspace member, hatch's env `path`, poetry.toml's virtualenvs.path), resolved
 * against the project; undefined when it lies outside: a project file chooses no host directory to read (SECURITY.md,
 * boundary 3). One inside that leads out by a symlink is bound where its packages are read (package-index.ts).
 */
export function dirInProject(path: string, projectRoot: string): string | undefined {
  const resolved = resolve(projectRoot, path);
  return isInside(resolved, projectRoot) ? resolved : undefined;
}
