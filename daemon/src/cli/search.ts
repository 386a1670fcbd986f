import { discover } from "../discovery/discover.js";
import { NixpkgsError } from "../nixpkgs/errors.js";
import { indexSources, IndexProvider, planIndex } from "../nixpkgs/index/provider.js";
import { answerSearch } from "../nixpkgs/search/nothing-found.js";
import { renderResults } from "../nixpkgs/search/render.js";
import { MAX_LIMIT, MAX_RANKED } from "../nixpkgs/search/search.js";
import { hostSystem } from "../nixpkgs/system.js";
import { commonHelp, EXIT, loadFromFlags, UsageError, type Command } from "./command.js";

export const searchCommand: Command = {
  name: "search",
  summary: "search nixpkgs like the nixpkgs_search tool (search QUERY [--json])",
  help: `Usage: nixshed search QUERY… [flags]

Ranked search over nixpkgs, the same as the nixpkgs_search tool. Builds the index first if needed.

  --json                 print the results as JSON
  --limit N              results to show (default 10, at most ${MAX_LIMIT})
  --offset N             skip this many results (paging; below ${MAX_RANKED})
  --include-broken       also show packages marked broken
  --include-unfree       also show unfree packages
  --platform SYSTEM      only packages for this Nix system (default: this machine's; "any": all)
  --nixpkgs-index PATH   prebuilt index (default: config nixpkgs.index, the metadata's, or the cache)

${commonHelp}`,
  options: {
    json: { type: "boolean" },
    limit: { type: "string" },
    offset: { type: "string" },
    "include-broken": { type: "boolean" },
    "include-unfree": { type: "boolean" },
    platform: { type: "string" },
    "nixpkgs-index": { type: "string" },
  },
  positionals: true,
  async run(values, positionals) {
    const query = positionals.join(" ");
    if (!query.trim()) throw new UsageError("search: give a QUERY");
    const limit = wholeNumber(values.limit, "limit", 1, MAX_LIMIT);
    const offset = wholeNumber(values.offset, "offset", 0, MAX_RANKED - 1);
    const { loaded, log } = loadFromFlags(values, { "nixpkgs-index": "nixpkgs.index" });
    const discovery = await discover(loaded, log);
    try {
      const plan = planIndex(indexSources(loaded.config.nixpkgs, discovery.nixpkgs, loaded.cacheDir));
      const index = await new IndexProvider(plan, (message) => log.info(message)).ready();
      const options = {
        limit,
        offset,
        includeBroken: values["include-broken"] === true,
        includeUnfree: values["include-unfree"] === true,
        platform: (values.platform as string | undefined) ?? hostSystem(),
      };
      const answer = answerSearch(index, query, options);
      process.stdout.write(values.json ? `${JSON.stringify(answer.results, null, 2)}\n` : `${renderResults(query, answer)}\n`);
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof NixpkgsError)) throw error;
      process.stderr.write(`nixshed search: ${error.message}\n${error.hint ? `${error.hint}\n` : ""}`);
      return EXIT.failure;
    }
  },
};

/** A flag's whole number from `min` to `max`, or undefined when not given. */
function wholeNumber(value: unknown, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!(Number.isInteger(number) && number >= min && number <= max)) {
    throw new UsageError(`search: --${flag} takes a whole number from ${min} to ${max}`);
  }
  return number;
}
