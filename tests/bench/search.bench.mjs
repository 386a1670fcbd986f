// nixpkgs search quality and latency on the real catalog: hit@1, hit@5 and MRR (first accepted
// answer within the top 10) per query kind for each query set, and for its queries as agents also
// word them (tasks and names phrased, language tools and conversions reworded); then warm
// nixpkgs_search latency over MCP, as an agent sees it (stdio, JSON-RPC, rendering included).
// Needs `npm run build` first.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO, CLI, formatMs, percentile, printTable, serve, timeTool } from "./support.mjs";

const CATALOG = join(REPO, "../shared/data/nixpkgs-unstable-2025-09-27.packages.json.br");
const SETS = [
  ["dev", "nixpkgs-queries-dev.json"],
  ["held-out", "nixpkgs-queries-held-out.json"],
  ["CI", "nixpkgs-queries.json"],
  ["broad", "nixpkgs-queries-broad.json"],
].map(([name, file]) => ({ name, queries: JSON.parse(readFileSync(join(REPO, "tests/fixtures", file), "utf8")).queries }));
/** How agents wrap a task; each kind below is the held-out tasks asked so, to compare with the held-out set's "task" row. */
const PHRASINGS = [
  "how do I {}",
  "cli tool to {}",
  "{} from the command line",
  "best way to {}",
  "program that can {}",
  "I would like to {}",
  "nix package to {}",
  "{} for my project",
  "{} nix package",
  "{} on nixos",
  "{} in a script",
  "command to {}",
];
SETS.push({
  name: "tasks phrased",
  queries: SETS[1].queries
    .filter((q) => q.kind === "task")
    .flatMap((q) => PHRASINGS.map((phrasing) => ({ ...q, query: phrasing.replace("{}", q.query), kind: phrasing }))),
});
/** How agents shorten a language ("ts linter", "py formatter") or a kind ("markdown lint", "go fmt"), or ask around it. */
const SHORT_LANGUAGES = { python: "py", javascript: "js", typescript: "ts", haskell: "hs", markdown: "md", shell: "sh", bash: "sh" };
Object.assign(SHORT_LANGUAGES, { ruby: "rb", kotlin: "kt", terraform: "tf", yaml: "yml" });
const SHORT_KINDS = { formatter: "fmt", linter: "lint" };
const REWORDINGS = {
  "language shortened": ([language, kind]) => SHORT_LANGUAGES[language] && `${SHORT_LANGUAGES[language]} ${kind}`,
  "kind shortened": ([language, kind]) => SHORT_KINDS[kind] && `${language} ${SHORT_KINDS[kind]}`,
  "which … should I use for": ([language, kind]) => `which ${kind} should I use for ${language}`,
};
/** The dev and held-out "<language> <kind>" queries so reworded, to compare with their sets' "language-tool" rows. */
SETS.push({
  name: "language tools reworded",
  queries: SETS.slice(0, 2)
    .flatMap((set) => set.queries)
    .filter((q) => q.kind === "language-tool" && /^\S+ (formatter|linter|lsp)$/.test(q.query))
    .flatMap((q) =>
      Object.entries(REWORDINGS).flatMap(([kind, reword]) => {
        const query = reword(q.query.split(" "));
        return query ? [{ ...q, query, kind }] : [];
      }),
    ),
});
/** The dev and held-out names as agents also ask for them, to compare with their sets' "name" rows. */
const NAME_PHRASINGS = ["install {}", "{} latest version"];
SETS.push({
  name: "names phrased",
  queries: SETS.slice(0, 2)
    .flatMap((set) => set.queries)
    .filter((q) => q.kind === "name")
    .flatMap((q) => NAME_PHRASINGS.map((phrasing) => ({ ...q, query: phrasing.replace("{}", q.query), kind: phrasing }))),
});
/** The dev and held-out "<format> to <format>" queries as converters' names and arrows write them, to compare with their task rows. */
const SHORT_FORMATS = { markdown: "md", text: "txt", yaml: "yml", jpeg: "jpg" };
const CONVERSION_WORDINGS = {
  a2b: (from, to) => `${from}2${to}`,
  "a -> b": (from, to) => `${from} -> ${to}`,
  "formats shortened": (from, to) => `${SHORT_FORMATS[from] ?? from} to ${SHORT_FORMATS[to] ?? to}`,
};
SETS.push({
  name: "conversions reworded",
  queries: SETS.slice(0, 2)
    .flatMap((set) => set.queries)
    .filter((q) => /^(?:convert )?[a-z0-9]+ to [a-z0-9]+$/.test(q.query))
    .flatMap((q) => {
      const [from, , to] = q.query.replace(/^convert /, "").split(" ");
      return Object.entries(CONVERSION_WORDINGS).map(([kind, word]) => ({ ...q, query: word(from, to), kind }));
    }),
});
/** Latency is timed on the sets above, as when its goal was set; the blind sets below are for quality only. */
const TIMED = SETS.flatMap((set) => set.queries.map((q) => q.query));
/** Sets written blind, after tuning, and never tuned on (nixpkgs-queries-blind.json), each reported apart. */
const BLIND = JSON.parse(readFileSync(join(REPO, "tests/fixtures/nixpkgs-queries-blind.json"), "utf8")).queries;
for (const set of new Set(BLIND.map((q) => q.set))) SETS.push({ name: `blind ${set}`, queries: BLIND.filter((q) => q.set === set) });
const DEPTH = 10;

export default async function bench() {
  const index = join(mkdtempSync(join(tmpdir(), "nixshed-bench-search-")), "nixpkgs.idx");
  execFileSync(process.execPath, [CLI, "index", "build", "--from", CATALOG, "--out", index], { stdio: "ignore" });
  const { NixpkgsIndex } = await import(pathToFileURL(join(REPO, "daemon/dist/nixpkgs/index/index.js")).href);
  // What the tool answers: for a misspelt name that matches nothing, its closest names' packages.
  const { answerSearch } = await import(pathToFileURL(join(REPO, "daemon/dist/nixpkgs/search/nothing-found.js")).href);
  const loaded = NixpkgsIndex.load(index);
  const rankOf = ({ query, expect }) => {
    const { results } = answerSearch(loaded, query, { limit: DEPTH, platform: "x86_64-linux" });
    const at = results.findIndex((r) => expect.includes(r.attr) || r.alsoIn.some((attr) => expect.includes(attr)));
    return at < 0 ? Infinity : at + 1;
  };

  const rows = [["set", "kind", "queries", "hit@1", "hit@5", "MRR"]];
  const pct = (n, of) => `${((100 * n) / of).toFixed(1)}%`;
  for (const { name, queries } of SETS) {
    const ranks = queries.map((q) => ({ kind: q.kind ?? "-", rank: rankOf(q) }));
    const kinds = [...new Set(ranks.map((r) => r.kind))].sort();
    for (const kind of [...(kinds.length > 1 ? kinds : []), "all"]) {
      const of = ranks.filter((r) => kind === "all" || r.kind === kind).map((r) => r.rank);
      const mrr = of.reduce((sum, rank) => sum + 1 / rank, 0) / of.length;
      rows.push([
        name,
        kind,
        of.length,
        pct(of.filter((r) => r === 1).length, of.length),
        pct(of.filter((r) => r <= 5).length, of.length),
        mrr.toFixed(3),
      ]);
    }
  }
  printTable(rows);

  await latencyOverMcp(index, TIMED);
}

/** Every query once to warm up, then each timed through nixpkgs_search as a client calls it. */
async function latencyOverMcp(index, queries) {
  const scratch = mkdtempSync(join(tmpdir(), "nixshed-bench-search-serve-"));
  const { client } = await serve(
    ["--nixpkgs-index", index, "--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache"), "--project", scratch],
    { stderr: "ignore" },
  );
  for (const query of queries) await timeTool(client, "nixpkgs_search", { query });
  const times = [];
  for (const query of queries) times.push(...(await timeTool(client, "nixpkgs_search", { query })).times);
  await client.close();
  const ms = (value) => formatMs(value, 2);
  console.log(
    `warm nixpkgs_search over MCP, ${times.length} queries: p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}, max ${ms(Math.max(...times))}`,
  );
}
