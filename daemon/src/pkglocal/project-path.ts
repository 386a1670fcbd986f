// Paths as the agent sees them: relative to the project when inside it, absolute otherwise.
import { relative } from "node:path";

export function shownPath(path: string, projectRoot: string): string {
  const inside = relative(projectRoot, path);
  return inside.startsWith("..") || inside.startsWith("/") ? path : inside || ".";
}
