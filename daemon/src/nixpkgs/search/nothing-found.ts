// What a search that finds nothing says instead, for the tool and `nixshed search` alike: the
// packages it hid that match (broken, unfree, another platform's), each with why and the switch
// that shows it, so "nothing" is not read as "nixpkgs has no such package"; else the closest names.
// The switches are nixpkgs_search's arguments (and `nixshed search`'s flags, dashed).
import type { NixpkgsIndex } from "../index/index.js";
import { closeToQuery } from "./close-names.js";
import { searchIndex, type SearchOptions } from "./search.js";

/** How many hidden matches are named. */
const NAMED = 3;

function hiddenMatches(index: NixpkgsIndex, query: string, options: SearchOptions): string[] {
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

/** For a search that found nothing: what it hid, or else the names closest to the query. */
export function nothingFound(index: NixpkgsIndex, query: string, options: SearchOptions): { hidden: string[] } | { suggestions: string[] } {
  const hidden = hiddenMatches(index, query, options);
  return hidden.length > 0 ? { hidden } : { suggestions: closeToQuery(index, query) };
}
