// What a search that finds nothing says instead, for the tool and `nixshed search` alike: the
// packages it hid that match (broken, unfree, another platform's), each with why and the switch
// that shows it, so "nothing" is not read as "nixpkgs has no such package"; else the closest names,
// whose packages stand as the results.
// The switches are nixpkgs_search's arguments (and `nixshed search`'s flags, dashed).
import { NixpkgsError } from "../errors.js";
import type { NixpkgsIndex } from "../index/index.js";
import { closeToQuery } from "./close-names.js";
import { clampLimit, resultOf, searchIndex, type SearchOptions, type SearchResult } from "./search.js";

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

export interface SearchAnswer {
  results: SearchResult[];
  /** More results follow: the offset of the next page. */
  nextOffset?: number;
  /** Nothing matched: the closest names, whose packages are the results ("imagemagik": imagemagick). */
  suggestions?: string[];
  /** Nothing matched as asked: the broken, unfree or other platforms' packages that do. */
  hidden?: string[];
}

/**
 * A search as the tool, `nixshed search` and the bench answer it: a page of the packages that match (`offset` skips
 * that many, up to MAX_RANKED); for none, what it hid, or the packages of the names closest to a misspelt one, as
 * an agent would search for them next.
 */
export function answerSearch(index: NixpkgsIndex, query: string, options: SearchOptions & { offset?: number }): SearchAnswer {
  const page = clampLimit(options.limit);
  const offset = options.offset ?? 0;
  const ranked = searchIndex(index, query, { ...options, limit: offset + page + 1 });
  const results = ranked.slice(offset, offset + page);
  if (results.length > 0) return ranked.length > offset + page ? { results, nextOffset: offset + page } : { results };
  if (ranked.length > 0)
    throw new NixpkgsError(`'${query}' has ${ranked.length} results, fewer than offset ${offset}`, "Pass a smaller offset.");
  const instead = nothingFound(index, query, options);
  if ("hidden" in instead) return { results, hidden: instead.hidden };
  // A set's member as named ("python3Packages.requests") is found through its alias.
  const closest = instead.suggestions
    .map((name) => {
      const id = index.lookup(name);
      return id >= 0 ? id : index.lookupInFamily(name);
    })
    .filter((id) => id >= 0);
  return { results: closest.slice(0, page).map((id) => resultOf(index, id, 0)), suggestions: instead.suggestions };
}
