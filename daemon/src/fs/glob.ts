// An agent's glob (list_files, search_files), made into the one ripgrep matches against the paths
// below the directory it filters. A relative glob is ripgrep's own, relative to that directory. An
// absolute one is a path of the project's world (/project/..., a served root), which the
// confinement reads: its literal head is made relative to the directory and anchored there. A
// glob that can only match outside the directory is refused: ripgrep would match nothing, and the
// agent would take the silence for an answer.
import { lstatSync } from "node:fs";
import { join, relative } from "node:path";
import { isInside } from "../files/path-inside.js";
import type { Confinement } from "./confine.js";
import { FsError } from "./errors.js";

/** What makes a segment a pattern rather than a name, in ripgrep's glob syntax. */
const PATTERN = /[*?[{\\]/;

/** `glob` as ripgrep should match it below the directory whose real path is `dir`. */
export function globWithin(confinement: Confinement, glob: string, dir: string): string {
  const negation = glob.startsWith("!") ? "!" : "";
  const body = glob.slice(negation.length);
  const segments = body.split("/");
  // ripgrep matches paths without "..", so a glob with one matches nothing.
  if (segments.includes("..")) throw outside(confinement, glob, dir);
  if (!body.startsWith("/")) return `${negation}${asAgentsMeanIt(body, dir)}`;
  const firstPattern = segments.findIndex((segment) => PATTERN.test(segment));
  const head = firstPattern === -1 ? segments.length : firstPattern;
  const under = confinement.lexical(segments.slice(0, head).join("/") || "/");
  if (!isInside(under, dir)) throw outside(confinement, glob, dir);
  const below = [relative(dir, under), ...segments.slice(head)].filter((segment) => segment !== "");
  return `${negation}/${below.join("/")}`;
}

/**
 * A relative glob as agents write it for other tools, in ripgrep's syntax, where ripgrep would match nothing: a list
 * ("*.md,*.ts", a comma being part of a name to ripgrep) is its alternatives, "{*.md,*.ts}"; a directory's plain
 * name ("src", "src/") is everything below it, "src/**".
 */
function asAgentsMeanIt(glob: string, dir: string): string {
  const parts = glob.split(",").map((part) => part.trim());
  // A list of patterns, not a name with a comma in it ("a,b.txt").
  if (parts.length > 1 && !/[{}]/.test(glob) && parts.every((part) => part !== "") && parts.some((part) => PATTERN.test(part)))
    return `{${parts.join(",")}}`;
  let end = glob.length;
  while (end > 0 && glob[end - 1] === "/") end--;
  // Not a regex: /\/+$/ took quadratic time on a glob of many slashes.
  const name = glob.slice(0, end);
  if (name !== "" && !PATTERN.test(name) && isDirectory(join(dir, name))) return `${name}/**`;
  return glob;
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function outside(confinement: Confinement, glob: string, dir: string): FsError {
  const shown = confinement.shown(dir);
  const where = shown === "." ? "the project" : shown;
  return new FsError(
    `glob "${glob}" can only match outside ${where}`,
    `give a glob relative to ${where} (e.g. "**/*.ts") or under /project/; for another directory, pass it as path`,
  );
}

/** Whether a path given is a glob ("src/*.py"), which a path argument reads as the files it matches where none has that name. */
export const isGlobPath = (path: string): boolean => PATTERN.test(path);

/** The hint for a path that does not exist: a glob given as the path ("src/*.py") is told to go as glob. */
export function missingPathHint(input: string, otherwise: string): string {
  return isGlobPath(input) ? `"${input}" is a glob: pass it as glob (with path for the directory it is below)` : otherwise;
}
