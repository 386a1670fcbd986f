// Paths around the project: shown relative to it when inside it, and the directories above it.
import { dirname } from "node:path";

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
