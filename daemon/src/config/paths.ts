// Which configuration keys hold paths, and what a relative one means: a path in a config file is
// relative to that file's directory (for the project's .nixshed.toml, the project root), one from a
// flag or an environment variable to the working directory. Resolved once, per layer, so nothing
// downstream guesses against the server's own cwd. Zod-free: ./layers.ts runs before the schema loads.
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

/** Keys whose value (a string, or each string of a list) names a file or directory on the host. */
const PATH_KEYS = new Set(["metadata", "state_dir", "cache_dir", "fs.extra_roots", "sandbox.dirs", "nixpkgs.index"]);

/**
 * nixpkgs.source is a path when it looks like one (`/…`, `./…`, `../…`) or, without a flake scheme,
 * names something that exists (`tests/fixtures/nixpkgs`); anything else is a flake reference.
 */
const isSourcePath = (value: string, base: string) =>
  value.startsWith("/") || value.startsWith(".") || (!value.includes(":") && existsSync(resolve(base, value)));

function resolveValue(key: string, value: unknown, base: string): unknown {
  const one = (item: unknown) => (typeof item === "string" && item !== "" ? resolve(base, item) : item);
  if (PATH_KEYS.has(key)) return Array.isArray(value) ? value.map(one) : one(value);
  if (key === "nixpkgs.source" && typeof value === "string" && value !== "" && isSourcePath(value, base)) return resolve(base, value);
  return value;
}

/** A layer's values with every relative path made absolute against `base`. */
export function resolveLayerPaths(values: Record<string, unknown>, base: string, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    const table = typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
    out[key] = table ? resolveLayerPaths(value as Record<string, unknown>, base, dotted) : resolveValue(dotted, value, base);
  }
  return out;
}

/** `path` is `root` or below it, compared by whole components. Both absolute. */
export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${"/"}`) && !isAbsolute(rel));
}
