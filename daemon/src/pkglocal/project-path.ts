// Paths as the agent sees them: relative to the project when inside it, absolute otherwise. Both
// sides are absolute and normalised (the project root is a realpath, the rest built by join), so a
// prefix test is exact; path.relative costs more than the whole warm scan when called per package.
export function shownPath(path: string, projectRoot: string): string {
  if (path === projectRoot) return ".";
  const prefix = projectRoot.endsWith("/") ? projectRoot : `${projectRoot}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
