import { sep } from "node:path";

/** `child` equals `parent` or lies below it, compared by whole path components ("/a/proj-evil" is not in "/a/proj"). */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}
