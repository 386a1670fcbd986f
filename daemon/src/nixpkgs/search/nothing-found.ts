// When a search finds nothing, the packages it hid that match (broken, unfree, another platform's),
// each with why and the switch that shows it: "nothing" is then not read as "nixpkgs has no such
// package". The switches are nixpkgs_search's arguments (and `nixshed search`'s flags, dashed).
import type { NixpkgsIndex } from "../index/index.js";
import { searchIndex, type SearchOptions } from "./search.js";

/** How many hidden matches are named. */
const NAMED = 3;

export function hiddenMatches(index: NixpkgsIndex, query: string, options: SearchOptions): string[] {
  const everything = { includeBroken: true, includeUnfree: true, platform: "any" };
  return searchIndex(index, query, { ...everything, limit: NAMED }).map((result) => {
    const why =
      result.flags.includes("broken") && !options.includeBroken
        ? "broken: pass include_broken"
        : result.flags.includes("unfree") && !options.includeUnfree
          ? "unfree: pass include_unfree"
          : `not for ${options.platform}: pass platform "any"`;
    return `${result.attr} (${why})`;
  });
}
