// The compact text form of search results, shared by the tool and `nixshed search`.
import type { SearchAnswer } from "./nothing-found.js";
import type { SearchResult } from "./search.js";

type Answer = Omit<SearchAnswer, "results"> & { results: Omit<SearchResult, "score">[] };

/**
 * The results and where the next page starts, or for none the matches it hid (`hidden`, nothing-found.ts);
 * for a misspelt name, its closest names' packages (`suggestions`).
 */
export function renderResults(query: string, { results, nextOffset, suggestions = [], hidden = [] }: Answer): string {
  if (results.length === 0 && hidden.length > 0) {
    return `No nixpkgs package matches '${query}' as asked; hidden: ${hidden.join(", ")}.`;
  }
  if (results.length === 0) {
    return `No nixpkgs package matches '${query}'${suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : "."}`;
  }
  const heading = suggestions.length > 0 ? `No nixpkgs package matches '${query}'; the closest names:\n` : "";
  return `${heading}${results
    .map((result) => {
      const notes = [
        result.mainProgram && result.mainProgram !== result.pname ? `program ${result.mainProgram}` : "",
        result.license,
        ...result.flags,
        result.alsoIn.length > 0 ? `also ${result.alsoIn.slice(0, 3).join(", ")}${result.alsoIn.length > 3 ? ", …" : ""}` : "",
      ].filter(Boolean);
      return `${result.attr} ${result.version}: ${result.description || "(no description)"}${notes.length ? ` [${notes.join("; ")}]` : ""}`;
    })
    .join("\n")}${nextOffset === undefined ? "" : `\nMore: pass offset ${nextOffset}.`}`;
}
