// nixpkgs search on the real catalog: index build time and size, spawn → first answer, warm search
// p50/p99, RSS with the index loaded, and top-5 hits on the query set — beside a plain linear
// substring scan over the same packages in the same run. Needs `npm run build` first.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, columns, formatMs, percentile, rssBytes, serve, timeCalls } from "./support.mjs";

const CATALOG = join(REPO, "../shared/data/nixpkgs-unstable-2025-09-27.packages.json.br");
const QUERIES = JSON.parse(readFileSync(join(REPO, "tests/fixtures/nixpkgs-queries.json"), "utf8")).queries;
const BROAD = JSON.parse(readFileSync(join(REPO, "tests/fixtures/nixpkgs-queries-broad.json"), "utf8")).queries;

const ms = (value) => formatMs(value, 2);

/** A few hundred queries: the agent set, plus single words and names drawn from it. */
function workload() {
  const queries = QUERIES.map((q) => q.query);
  const words = [...new Set(queries.flatMap((q) => q.split(/\s+/)))];
  const names = [...new Set(QUERIES.flatMap((q) => q.expect))];
  return [...queries, ...words, ...names, ...queries.map((q) => q.toUpperCase())].slice(0, 400);
}

export default async function bench() {
  const out = join(mkdtempSync(join(tmpdir(), "nixshed-bench-")), "nixpkgs.idx");
  const started = performance.now();
  execFileSync(process.execPath, [CLI, "index", "build", "--from", CATALOG, "--out", out], { stdio: "ignore" });
  console.log(
    `index build: ${((performance.now() - started) / 1000).toFixed(1)} s, ${(statSync(out).size / 1e6).toFixed(1)} MB (catalog: ${(statSync(CATALOG).size / 1e6).toFixed(1)} MB brotli)`,
  );

  const firstAnswers = await timeCalls(5, () => {
    const result = spawnSync(process.execPath, [CLI, "search", "--nixpkgs-index", out, "--limit", "5", "rg"], { encoding: "utf8" });
    if (!result.stdout.startsWith("ripgrep")) throw new Error(`unexpected answer: ${result.stdout}${result.stderr}`);
  });
  console.log(
    `spawn → first answer (\`nixshed search\`, process start to exit): p50 ${ms(percentile(firstAnswers, 50))}, max ${ms(Math.max(...firstAnswers))}`,
  );

  await benchServer(out);

  // Warm search and RSS in a fresh process, so RSS is the index's and not the bench's.
  const probe = `
    const { NixpkgsIndex } = await import(${JSON.stringify(join(REPO, "daemon/dist/nixpkgs/index/index.js"))});
    const { searchIndex } = await import(${JSON.stringify(join(REPO, "daemon/dist/nixpkgs/search/search.js"))});
    const queries = ${JSON.stringify(workload())};
    const expected = ${JSON.stringify(QUERIES)};
    const broad = ${JSON.stringify(BROAD)};
    let t = performance.now();
    const index = NixpkgsIndex.load(${JSON.stringify(out)});
    const load = performance.now() - t;
    for (const q of queries) searchIndex(index, q, { limit: 10, platform: "x86_64-linux" });
    const times = [];
    for (const q of queries) { t = performance.now(); searchIndex(index, q, { limit: 10, platform: "x86_64-linux" }); times.push(performance.now() - t); }
    const hitsOf = (set) => set.filter((q) => searchIndex(index, q.query, { limit: 5, platform: "x86_64-linux" }).some((r) => q.expect.includes(r.attr) || r.alsoIn.some((a) => q.expect.includes(a)))).length;
    console.log(JSON.stringify({ load, times, hits: hitsOf(expected), broadHits: hitsOf(broad), rss: process.memoryUsage().rss }));`;
  const ranked = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" }));

  const baseline = `
    const { readFileSync } = await import("node:fs");
    const { brotliDecompressSync } = await import("node:zlib");
    const queries = ${JSON.stringify(workload())};
    const expected = ${JSON.stringify(QUERIES)};
    const broad = ${JSON.stringify(BROAD)};
    let t = performance.now();
    const packages = Object.entries(JSON.parse(brotliDecompressSync(readFileSync(${JSON.stringify(CATALOG)})).toString()).packages)
      .map(([attr, p]) => ({ attr, text: (attr + " " + (p.meta.description ?? "")).toLowerCase() }));
    const load = performance.now() - t;
    const scan = (q) => { const needle = q.toLowerCase(); const found = []; for (const p of packages) if (p.text.includes(needle)) { found.push(p.attr); if (found.length === 10) break; } return found; };
    for (const q of queries) scan(q);
    const times = [];
    for (const q of queries) { t = performance.now(); scan(q); times.push(performance.now() - t); }
    const hitsOf = (set) => set.filter((q) => scan(q.query).slice(0, 5).some((a) => q.expect.includes(a))).length;
    console.log(JSON.stringify({ load, times, hits: hitsOf(expected), broadHits: hitsOf(broad), rss: process.memoryUsage().rss }));`;
  const linear = JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", baseline], { encoding: "utf8", maxBuffer: 1 << 26 }),
  );

  const row = columns([37, 17], "  ");
  row(`${workload().length} queries, 129,815 packages`, "nixshed index", "linear substring scan");
  row("load", ms(ranked.load), ms(linear.load));
  row("warm search p50", ms(percentile(ranked.times, 50)), ms(percentile(linear.times, 50)));
  row("warm search p99", ms(percentile(ranked.times, 99)), ms(percentile(linear.times, 99)));
  row("RSS after load + searches", `${(ranked.rss / 1e6).toFixed(0)} MB`, `${(linear.rss / 1e6).toFixed(0)} MB`);
  const rate = (hits, set) => `${hits} (${((100 * hits) / set.length).toFixed(1)}%)`;
  row(`top-5 hits (${QUERIES.length} agent queries)`, rate(ranked.hits, QUERIES), rate(linear.hits, QUERIES));
  row(`top-5 hits (${BROAD.length} broader queries)`, rate(ranked.broadHits, BROAD), rate(linear.broadHits, BROAD));
}

/** The daemon itself: spawn → first nixpkgs_search answer over MCP, tools/list size, RSS while serving. */
async function benchServer(index) {
  const scratch = mkdtempSync(join(tmpdir(), "nixshed-bench-serve-"));
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const { client, transport } = await serve(
      ["--nixpkgs-index", index, "--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache"), "--project", scratch],
      { stderr: "ignore" },
    );
    await client.callTool({ name: "nixpkgs_search", arguments: { query: "rg", limit: 5 } });
    firsts.push(performance.now() - started);
    if (i === 0) {
      const { tools } = await client.listTools();
      const ours = tools.filter((tool) => tool.name.startsWith("nixpkgs_"));
      const size = (list) => Buffer.byteLength(JSON.stringify(list));
      console.log(
        `tools/list: ${tools.length} tools, ${(size(tools) / 1024).toFixed(1)} KiB; nixpkgs: ${ours.length} tools (${ours.length - 5} everyday packages), ${(size(ours) / 1024).toFixed(1)} KiB, ${Math.round(size(ours.filter((t) => !["nixpkgs_search", "nixpkgs_execute", "nixpkgs_install_tool", "nixpkgs_uninstall_tool", "nixpkgs_list_installed"].includes(t.name))) / (ours.length - 5))} bytes per package tool`,
      );
      for (const query of workload()) await client.callTool({ name: "nixpkgs_search", arguments: { query } });
      console.log(`daemon RSS after ${workload().length} searches over MCP: ${(rssBytes(transport.pid) / 1e6).toFixed(0)} MB`);
    }
    await client.close();
  }
  console.log(
    `spawn → first nixpkgs_search answer over MCP (\`nixshed serve\`): p50 ${ms(percentile(firsts, 50))}, max ${ms(Math.max(...firsts))}`,
  );
}
