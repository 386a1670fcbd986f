// pkglocal beside descoped/mcp-pkg-local: scan time (cold and warm) on the same ~330-package npm
// node_modules, a 300-distribution venv and a pnpm workspace, and read_package time, both servers driven the same
// way (the SDK's Client over stdio). The peer is used where it was built on this machine (outside
// the repository; PKGLOCAL_PEER names its dist/index.js); without it, only nixshed's numbers.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { largeVenvProject, npmProject, pnpmProject } from "../../daemon/test/pkglocal/fixtures.mjs";

const CLI = fileURLToPath(new URL("../../daemon/dist/cli/main.js", import.meta.url));
const INDEX = new URL("../../daemon/dist/pkglocal/package-index.js", import.meta.url);
const PEER = process.env.PKGLOCAL_PEER ?? [join("/work/.peers/mcp-pkg-local/dist/index.js"), join(homedir(), ".cache/peers/mcp-pkg-local/dist/index.js")].find(existsSync);
const COLD_RUNS = 5;
/** Warm: the steady state, after the first calls have warmed the JIT up (same for both servers). */
const WARM_UP = 10;
const WARM_RUNS = 30;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => (value === undefined ? "-" : `${value.toFixed(1)} ms`);

async function connect(command, args, cwd, env) {
  const transport = new StdioClientTransport({ command, args, cwd, env: { PATH: process.env.PATH ?? "", HOME: homedir(), ...env }, stderr: "ignore" });
  const client = new Client({ name: "pkglocal-bench", version: "0" });
  await client.connect(transport);
  // As a real client does first; the SDK then validates results against the tools' output schemas.
  await client.listTools();
  return client;
}

async function timed(client, name, args) {
  const start = performance.now();
  const result = await client.callTool({ name, arguments: args });
  const elapsed = performance.now() - start;
  if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
  return { elapsed, result };
}

/** One server flavour: how to start it on a project with an empty cache, and its tool calls. */
const servers = {
  nixshed: {
    start: (project, cache) => connect(process.execPath, [CLI, "serve", "--project", project], project, { XDG_CACHE_HOME: cache }),
    scan: { name: "scan_packages", args: { limit: 5000 } },
    count: (result) => result.structuredContent.total,
    read: (name) => ({ name: "read_package", args: { package: name } }),
    readFile: (name, path) => ({ name: "read_package", args: { package: name, path } }),
  },
  "mcp-pkg-local": {
    // Its cache goes into the project unless BOTTLE_CACHE_ROOT says otherwise: keep the fixture clean.
    start: (project, cache) => connect(process.execPath, [PEER], project, { BOTTLE_CACHE_ROOT: cache }),
    scan: { name: "scan-packages", args: { scope: "all" } },
    count: (result) => {
      const data = JSON.parse(result.content[0].text);
      return data.summary?.total ?? Object.keys(data.packages ?? {}).length;
    },
    read: (name) => ({ name: "read-package", args: { packageName: name } }),
  },
};

async function measure(flavour, project, readName, readPath) {
  const server = servers[flavour];
  const cold = [];
  let client;
  let count;
  for (let run = 0; run < COLD_RUNS; run++) {
    const cache = mkdtempSync(join(tmpdir(), "pkglocal-bench-cache-"));
    await client?.close();
    client = await server.start(project, cache);
    const first = await timed(client, server.scan.name, server.scan.args);
    cold.push(first.elapsed);
    count = server.count(first.result);
  }
  const steady = async (call) => {
    for (let run = 0; run < WARM_UP; run++) await timed(client, call.name, call.args);
    const times = [];
    for (let run = 0; run < WARM_RUNS; run++) times.push((await timed(client, call.name, call.args)).elapsed);
    return median(times);
  };
  const warm = await steady(server.scan);
  const read = await steady(server.read(readName));
  const readFile = server.readFile && readPath ? await steady(server.readFile(readName, readPath)) : undefined;
  await client.close();
  return { count, cold: median(cold), warm, read, readFile };
}

/** The core alone, without MCP and process start: what the 50 ms target is about. */
async function inProcess(project) {
  const { PackageIndex } = await import(INDEX.href);
  const caches = [];
  const fresh = (cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-bench-core-"))) => {
    caches.push(cacheDir);
    return new PackageIndex({ projectRoot: project, cacheDir, env: { PATH: "" }, pythonEnvs: [], nodeModules: [] });
  };
  const time = (index) => {
    const start = performance.now();
    const found = index.scan();
    return { elapsed: performance.now() - start, found };
  };
  // Cold: an empty cache each time (the first run also pays for loading and compiling the code).
  const cold = Array.from({ length: COLD_RUNS }, () => time(fresh()).elapsed);
  const index = fresh();
  const { found } = time(index);
  const warm = Array.from({ length: WARM_UP + WARM_RUNS }, () => time(index).elapsed).slice(WARM_UP);
  const fromDisk = time(fresh(caches.at(-1))).elapsed;
  for (const cacheDir of new Set(caches)) rmSync(cacheDir, { recursive: true, force: true });
  return { count: found.packages.length, cold: median(cold), warm: median(warm), fromDisk };
}

export default async function bench() {
  if (!existsSync(CLI)) {
    console.log("daemon/dist missing: run `npm run build` first");
    return;
  }
  const trees = [
    { label: "npm node_modules", project: npmProject(), read: "express", path: "lib/router/index.js" },
    { label: "venv", project: largeVenvProject(), read: "bench-pkg-150", path: "bench_pkg_150/__init__.py" },
    // Small, but what pnpm makes: packages behind symlinks into node_modules/.pnpm.
    { label: "pnpm workspace", project: pnpmProject(), read: "debug", path: "src/index.js" },
  ];
  if (!PEER) console.log("peer not available (mcp-pkg-local not built here; PKGLOCAL_PEER names its dist/index.js)");
  for (const tree of trees) {
    const core = await inProcess(tree.project);
    console.log(`\n${tree.label}: ${core.count} packages`);
    console.log(`  nixshed core (in process): cold ${ms(core.cold)}, warm ${ms(core.warm)}, warm from the cache file in a new index ${ms(core.fromDisk)}`);
    const rows = [["server", "packages", "cold scan", "warm scan", "read_package", "read file"]];
    for (const flavour of Object.keys(servers)) {
      if (flavour === "mcp-pkg-local" && !PEER) continue;
      try {
        const result = await measure(flavour, tree.project, tree.read, tree.path);
        rows.push([flavour, String(result.count), ms(result.cold), ms(result.warm), ms(result.read), ms(result.readFile)]);
      } catch (error) {
        rows.push([flavour, `failed: ${error.message.split("\n")[0].slice(0, 80)}`, "", "", "", ""]);
      }
    }
    const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
    for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join("  ")}`);
    if (rows.length === 3 && rows.slice(1).every((row) => !row[1].startsWith("failed"))) {
      const speedup = (column) => (parseFloat(rows[2][column]) / parseFloat(rows[1][column])).toFixed(1);
      console.log(`  nixshed is ${speedup(2)}x (cold) and ${speedup(3)}x (warm) faster at scanning, ${speedup(4)}x at read_package`);
    }
  }
}
