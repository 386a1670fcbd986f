// nixpkgs_search: packages by name, program or purpose, from the index (built on first use).
import { z } from "zod";
import { defineTool } from "../../mcp/tool.js";
import type { IndexProvider } from "../index/provider.js";
import { answerSearch } from "./nothing-found.js";
import { renderResults } from "./render.js";
import { MAX_LIMIT, MAX_RANKED } from "./search.js";
import { hostSystem } from "../system.js";

export function searchTool(provider: IndexProvider) {
  return defineTool({
    name: "nixpkgs_search",
    title: "Search nixpkgs",
    description: "Find nixpkgs packages by name, program or purpose ('rg', 'python requests', 'resize images').",
    input: {
      query: z.string().describe("Package or program name, or what it does"),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe("Results (default 10)"),
      offset: z
        .number()
        .int()
        .min(0)
        .max(MAX_RANKED - 1)
        .optional(),
      include_broken: z.boolean().optional().describe("Also broken packages"),
      include_unfree: z.boolean().optional().describe("Also unfree packages"),
      platform: z.string().optional().describe(`Nix system (default ${hostSystem()}; "any")`),
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
      next_offset: z.number().int().optional(),
      suggestions: z.array(z.string()).optional().describe("When nothing matches: the closest names, whose packages are the results"),
      hidden: z
        .array(z.string())
        .optional()
        .describe("When nothing matches as asked: the broken, unfree or other platforms' packages that do"),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // More results than a page holds is the most a page holds (the answer says where the next starts).
    otherForms: (args) => (typeof args.limit === "number" && args.limit > MAX_LIMIT ? { ...args, limit: MAX_LIMIT } : args),
    run: async (args) => {
      const index = provider.get();
      const options = {
        limit: args.limit,
        offset: args.offset,
        includeBroken: args.include_broken,
        includeUnfree: args.include_unfree,
        platform: args.platform ?? hostSystem(),
      };
      const { results, nextOffset, ...instead } = answerSearch(index, args.query, options);
      const page = results.map(({ score: _score, ...result }) => result);
      return { query: args.query, results: page, ...(nextOffset === undefined ? {} : { next_offset: nextOffset }), ...instead };
    },
    render: ({ query, next_offset, ...answer }) => renderResults(query, { ...answer, nextOffset: next_offset }),
  });
}
