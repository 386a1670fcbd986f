// nixpkgs_search: packages by name, program or purpose, from the index (built on first use).
import { z } from "zod";
import { defineTool } from "../mcp/tool.js";
import type { IndexProvider } from "./index-provider.js";
import { renderResults } from "./render.js";
import { MAX_LIMIT, searchIndex } from "./search.js";
import { hostSystem } from "./system.js";

export function searchTool(provider: IndexProvider) {
  return defineTool({
    name: "nixpkgs_search",
    title: "Search nixpkgs",
    description:
      "Find nixpkgs packages by name, program or what they do (e.g. 'rg', 'python requests', 'resize images'). Broken and unfree packages are hidden unless asked for.",
    input: {
      query: z.string().describe("Package name, program name or a few words of what it does"),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe("Results (default 10)"),
      include_broken: z.boolean().optional().describe("Also show packages marked broken"),
      include_unfree: z.boolean().optional().describe("Also show unfree packages"),
      platform: z.string().optional().describe(`Nix system (default ${hostSystem()}; "any" for all)`),
    },
    output: {
      query: z.string(),
      results: z.array(
        z.object({
          attr: z.string(),
          pname: z.string(),
          version: z.string(),
          description: z.string(),
          homepage: z.string(),
          license: z.string(),
          mainProgram: z.string(),
          flags: z.array(z.string()),
          alsoIn: z.array(z.string()),
        }),
      ),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args) => ({
      query: args.query,
      results: searchIndex(provider.get(), args.query, {
        limit: args.limit,
        includeBroken: args.include_broken,
        includeUnfree: args.include_unfree,
        platform: args.platform ?? hostSystem(),
      }).map(({ score: _score, ...result }) => result),
    }),
    render: (result) => renderResults(result.query, result.results),
  });
}
