// fs benchmark: spawn→initialize and memory, glob listing, reading and content search on a large
// tree (a real node_modules), side by side with the official @modelcontextprotocol/server-filesystem
// driven by the same SDK Client, and with bare ripgrep for content search. Both the tree and the
// official server are installed from npm into a cache directory on first run (not dependencies).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, columns, connect, formatMs, median, rssBytes, timeCalls, timeTool } from "./support.mjs";

const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "nixshed-bench", "fs");
const TREE_PACKAGES = ["typescript", "rxjs", "@mui/material", "lodash", "webpack", "eslint", "@babel/core", "aws-sdk"];
const OFFICIAL = "@modelcontextprotocol/server-filesystem";
const SPAWNS = 15;
const REPEATS = 5;

function npmInstall(dir, packages) {
  if (existsSync(join(dir, "node_modules", packages[0], "package.json"))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{"private":true}\n');
  console.log(`(installing ${packages.join(" ")} into ${dir})`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...packages], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Symlinks out of the tree, the ways the official server was broken before; none may be followed. */
function escapeProbes(tree) {
  const outside = join(CACHE, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "secret.txt"), "SECRET\n");
  const links = {
    "escape-file": join(outside, "secret.txt"),
    "escape-dir": outside,
    "escape-relative": "../outside/secret.txt",
  };
  for (const [name, target] of Object.entries(links)) {
    rmSync(join(tree, name), { force: true });
    symlinkSync(target, join(tree, name));
  }
  mkdirSync(join(CACHE, "tree-evil"), { recursive: true });
  writeFileSync(join(CACHE, "tree-evil", "secret.txt"), "SECRET\n");
  return ["escape-file", "escape-dir/secret.txt", "escape-relative", join(CACHE, "tree-evil", "secret.txt"), "../outside/secret.txt"].map(
    (path) => (path.startsWith("/") ? path : join(tree, path)),
  );
}

const quietly = (command, args, env) => connect(command, args, { env, stderr: "ignore" });
const rssMb = (pid) => rssBytes(pid) / 2 ** 20;

/** The floor on this machine: a bare node process that answers initialize by hand, nothing else. */
const FLOOR = `process.stdin.once("data", (d) => { const { id, params } = JSON.parse(d.toString().split("\\n")[0]);
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: params.protocolVersion, capabilities: {}, serverInfo: { name: "floor", version: "0" } } }) + "\\n"); });`;

async function startup(command, args, env = () => ({}), { listTools = true } = {}) {
  const times = [];
  const rss = [];
  for (let i = 0; i < SPAWNS; i++) {
    const { client, transport, ms } = await quietly(command, args, env());
    times.push(ms);
    if (listTools) await client.listTools();
    rss.push(rssMb(transport.pid));
    await client.close();
  }
  return { ms: median(times), rss: median(rss) };
}

async function timed(client, name, args) {
  const { times, result } = await timeTool(client, name, args, { repeat: REPEATS });
  return { ms: median(times), result };
}

const bareRipgrep = async (args) =>
  median(await timeCalls(REPEATS, () => spawnSync("rg", args, { stdio: ["ignore", "ignore", "ignore"], maxBuffer: 1 << 30 })));

async function escapes(client, readTool, paths) {
  let escaped = 0;
  for (const path of paths) {
    const args = readTool === "read_content" ? { paths: [path] } : { path };
    const result = await client.callTool({ name: readTool, arguments: args }).catch(() => ({ isError: true, content: [] }));
    if (!result.isError && result.content.some((item) => item.type === "text" && item.text.includes("SECRET"))) escaped++;
  }
  return `${escaped}/${paths.length}`;
}

const row = columns([40, 22, 22, 22]);
const ms = (value) => formatMs(value, 0);

export default async function fsBench() {
  const treeDir = join(CACHE, "tree");
  const officialDir = join(CACHE, "official");
  npmInstall(treeDir, TREE_PACKAGES);
  npmInstall(officialDir, [OFFICIAL]);
  const probes = escapeProbes(treeDir);
  const files = Number(
    execFileSync("rg", ["--files", "--no-ignore", "--hidden", treeDir], { maxBuffer: 1 << 30 })
      .toString()
      .split("\n").length - 1,
  );
  const officialServer = join(officialDir, "node_modules", OFFICIAL, "dist", "index.js");
  const nixshedArgs = [
    CLI,
    "serve",
    "--project",
    treeDir,
    "--set",
    "sandbox.enabled=false",
    "--set",
    "nixpkgs.enabled=false",
    "--set",
    "pkglocal.enabled=false",
  ];
  const warmCache = mkdtempSync(join(tmpdir(), "nixshed-bench-cache-"));

  console.log(`tree: ${treeDir} (${files} files); ${SPAWNS} spawns, medians of ${REPEATS} calls`);
  row("", "nixshed", "server-filesystem", "bare rg");
  const warm = await startup(process.execPath, nixshedArgs, () => ({ XDG_CACHE_HOME: warmCache }));
  const cold = await startup(process.execPath, nixshedArgs, () => ({ XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "nixshed-bench-cold-")) }));
  const official = await startup(process.execPath, [officialServer, treeDir]);
  const floor = await startup(process.execPath, ["-e", FLOOR], undefined, { listTools: false });
  row("spawn→initialize (warm start)", ms(warm.ms), ms(official.ms));
  row("spawn→initialize (first start)", ms(cold.ms));
  row("  floor: bare node answering by hand", ms(floor.ms));
  row("RSS after tools/list", `${warm.rss.toFixed(0)} MB`, `${official.rss.toFixed(0)} MB`);

  const ours = await quietly(process.execPath, nixshedArgs, { XDG_CACHE_HOME: warmCache });
  const theirs = await quietly(process.execPath, [officialServer, treeDir]);
  try {
    const globOurs = await timed(ours.client, "list_files", { glob: "*.d.ts" });
    const globTheirs = await timed(theirs.client, "search_files", { path: treeDir, pattern: "**/*.d.ts" });
    const found = globOurs.result.structuredContent.entries.length + globOurs.result.structuredContent.more;
    const foundTheirs = globTheirs.result.content[0].text.split("\n").filter(Boolean).length;
    row("glob listing **/*.d.ts", `${ms(globOurs.ms)} (${found})`, `${ms(globTheirs.ms)} (${foundTheirs})`);
    row("  speed-up (target ≥ 3×)", `${(globTheirs.ms / globOurs.ms).toFixed(1)}×`);

    const sample = execFileSync("rg", ["--files", "--glob", "*.d.ts", "--max-depth", "4", join(treeDir, "node_modules", "typescript")], {
      maxBuffer: 1 << 30,
    })
      .toString()
      .split("\n")
      .filter((path) => path && statSync(path).size < 10_000)
      .slice(0, 20);
    const readOurs = await timed(ours.client, "read_content", { paths: sample });
    const readTheirs = await timed(theirs.client, "read_multiple_files", { paths: sample });
    row(`read_content, ${sample.length} small files`, ms(readOurs.ms), ms(readTheirs.ms));
    const big = join(treeDir, "node_modules", "lodash", "lodash.js");
    const bigOurs = await timed(ours.client, "read_content", { paths: [big], start_line: 1000, end_line: 1100 });
    const bigTheirs = await timed(theirs.client, "read_text_file", { path: big, head: 1100 });
    row("lines 1000-1100 of lodash.js", ms(bigOurs.ms), `${ms(bigTheirs.ms)} (head 1100)`);

    const rgBase = ["--fixed-strings", "--hidden", "--glob", "!.git", "--json"];
    const scanOurs = await timed(ours.client, "search_files", { pattern: "NIXSHED_NO_SUCH_TEXT" });
    const scanRg = await bareRipgrep([...rgBase, "NIXSHED_NO_SUCH_TEXT", treeDir]);
    row("content search, no match (full scan)", ms(scanOurs.ms), "(no content search)", ms(scanRg));
    row("  ratio to bare rg (target ≤ 2×)", `${(scanOurs.ms / scanRg).toFixed(2)}×`);
    const hitsOurs = await timed(ours.client, "search_files", { pattern: "createElement", max_results: 200 });
    const hitsRg = await bareRipgrep([...rgBase, "--max-count", "1000000", "createElement", treeDir]);
    row("content search 'createElement'", `${ms(hitsOurs.ms)} (first 200)`, "", `${ms(hitsRg)} (all)`);

    row(
      "escapes (symlinks, sibling, ..)",
      await escapes(ours.client, "read_content", probes),
      await escapes(theirs.client, "read_text_file", probes),
    );
  } finally {
    await ours.client.close();
    await theirs.client.close();
  }
}
