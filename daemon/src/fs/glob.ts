// An agent's glob (list_files, search_files), made into the one ripgrep matches against the paths
// below the directory it filters. A relative glob is ripgrep's own, relative to that directory. An
// absolute one is a path of the project's world (/project/..., a served root), which the
// confinement reads: its literal head is made relative to the directory and anchored there. A
// glob that can only match outside the directory is refused: ripgrep would match nothing, and the
// agent would take the silence for an answer.
import { relative } from "node:path";
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
  if (!body.startsWith("/")) return glob;
  const firstPattern = segments.findIndex((segment) => PATTERN.test(segment));
  const head = firstPattern === -1 ? segments.length : firstPattern;
  const under = confinement.lexical(segments.slice(0, head).join("/") || "/");
  if (!isInside(under, dir)) throw outside(confinement, glob, dir);
  const below = [relative(dir, under), ...segments.slice(head)].filter((segment) => segment !== "");
  return `${negation}/${below.join("/")}`;
}

function outside(confinement: Confinement, glob: string, dir: string): FsError {
  const shown = confinement.shown(dir);
  const where = shown === "." ? "the project" : shown;
  return new FsError(
    `glob "${glob}" can only match outside ${where}`,
    `give a glob relative to ${where} (e.g. "**/*.ts") or under /project/; for another directory, pass it as path`,
  );
}
