// The agent surface: what tools/list costs an agent on every turn. Tool count, bytes of the
// tools/list result as JSON, estimated tokens (bytes / 4, a rough rule for English and JSON; no
// tokenizer is involved) and the largest definitions, for nixshed as it starts by default (the
// harness metadata: no nixpkgs source), with a nixpkgs source and the real catalog's index (every
// nixpkgs tool listed, the whole everyday set named), and with config nixpkgs.common_tools = "tools"
// (one tool per everyday package, the old default) — beside the official filesystem server, installed
// from npm outside the repository (as fs.bench.mjs does). Budget: ≤ 20 tools and ≤ 12 KB by default,
// read strictly: 12,000 bytes of UTF-8 (the everyday list's "·" and "…" are two and three bytes each).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, buildHarness, connect, printTable, serve } from "./support.mjs";

const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "nixshed-bench", "fs");
const OFFICIAL = "@modelcontextprotocol/server-filesystem";
// The catalog sits beside the repository (../shared), or beside the directory of clones.
const CATALOG = ["..", "../.."].map((up) => join(REPO, up, "shared/data/nixpkgs-unstable-2025-09-27.packages.json.br")).find(existsSync);
const FIXTURE = join(REPO, "tests/fixtures/nixpkgs");
const BUDGET = { tools: 20, bytes: 12_000 };

/** The official server, installed into the fs bench's cache on first use; undefined when npm cannot. */
function officialServer() {
  const dir = join(CACHE, "official");
  const entry = join(dir, "node_modules", OFFICIAL, "dist", "index.js");
  if (existsSync(entry)) return entry;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), '{"private":true}\n');
    console.log(`(installing ${OFFICIAL} into ${dir})`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", OFFICIAL], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    return entry;
  } catch {
    return undefined;
  }
}

/** tools/list of a connected server: the tools and the size of the result as sent. */
async function measure(connecting) {
  const { client } = await connecting;
  try {
    const result = await client.listTools();
    const sizes = result.tools.map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) }));
    return {
      count: result.tools.length,
      bytes: Buffer.byteLength(JSON.stringify(result)),
      largest: sizes.sort((a, b) => b.bytes - a.bytes).slice(0, 5),
    };
  } finally {
    await client.close();
  }
}

const kb = (bytes) => `${bytes.toLocaleString("en")} B`;
const tokens = (bytes) => `~${Math.round(bytes / 4).toLocaleString("en")}`;

export default async function surfaceBench() {
  const metadata = buildHarness();
  const scratch = mkdtempSync(join(tmpdir(), "nixshed-bench-surface-"));
  const project = join(scratch, "project");
  mkdirSync(project);
  const index = join(scratch, "nixpkgs.idx");
  execFileSync(process.execPath, [CLI, "index", "build", "--from", CATALOG, "--out", index], { stdio: "ignore" });
  const base = ["--metadata", metadata, "--project", project, "--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache")];
  const withNixpkgs = [...base, "--set", `nixpkgs.source=${FIXTURE}`, "--set", `nixpkgs.index=${index}`];
  const quiet = /** @type {const} */ ({ stderr: "ignore" });

  const rows = [
    { label: "nixshed, default (harness metadata)", ...(await measure(serve(base, quiet))) },
    { label: "nixshed, with a nixpkgs and its index", ...(await measure(serve(withNixpkgs, quiet))) },
    {
      label: 'nixshed, nixpkgs.common_tools = "tools"',
      ...(await measure(serve([...withNixpkgs, "--set", "nixpkgs.common_tools=tools"], quiet))),
    },
  ];
  const official = officialServer();
  if (official) rows.push({ label: `official ${OFFICIAL}`, ...(await measure(connect(process.execPath, [official, project], quiet))) });
  else console.log(`(${OFFICIAL} could not be installed; its column is left out)`);

  console.log(
    `tools/list result as JSON; tokens estimated as bytes / 4. Budget by default: ≤ ${BUDGET.tools} tools, ≤ ${kb(BUDGET.bytes)}`,
  );
  printTable([
    ["", "tools", "bytes", "tokens", "largest definitions (bytes)"],
    ...rows.map((row) => [
      row.label,
      row.count,
      kb(row.bytes),
      tokens(row.bytes),
      row.largest
        .slice(0, 3)
        .map((tool) => `${tool.name} ${tool.bytes}`)
        .join(", "),
    ]),
  ]);
  for (const row of rows.slice(0, 2))
    console.log(`${row.label}: ${row.count <= BUDGET.tools && row.bytes <= BUDGET.bytes ? "within" : "OVER"} budget`);
}
