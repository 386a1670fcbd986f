// pkglocal beside descoped/mcp-pkg-local: scan time (cold and warm) on the same ~330-package npm
// node_modules, a 300-distribution venv and a pnpm workspace, and read_package time, both servers driven the same
// way (the SDK's Client over stdio). The peer is used where it was built on this machine (outside
// the repository; PKGLOCAL_PEER names its dist/index.js); without it, only nixshed's numbers.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { largeVenvProject, npmProject, pnpmProject } from "../../daemon/test/pkglocal/fixtures.mjs";
import { CLI, connect, formatMs, median, printTable, timeTool } from "./support.mjs";

const INDEX = new URL("../../daemon/dist/pkglocal/package-index.js", import.meta.url);
const PEER =
  process.env.PKGLOCAL_PEER ??
  [join("/work/.peers/mcp-pkg-local/dist/index.js"), join(homedir(), ".cache/peers/mcp-pkg-local/dist/index.js")].find(existsSync);
const COLD_RUNS = 5;
/** Warm: the steady state, after the first calls have warmed the JIT up (same for both servers). */
const WARM_UP = 10;
const WARM_RUNS = 30;

const ms = (value) => formatMs(value, 1);

async function startServer(args, cwd, env) {
  const { client } = await connect(process.execPath, args, { cwd, env, stderr: "ignore" });
  // As a real client does first; the SDK then validates results against the tools' output schemas.
  await client.listTools();
  return client;
}

/** One server flavour: how to start it on a project with an empty cache, and its tool calls. */
const servers = {
  nixshed: {
    start: (project, cache) => startServer([CLI, "serve", "--project", project], project, { XDG_CACHE_HOME: cache }),
    scan: { name: "scan_packages", args: { limit: 5000 } },
    count: (result) => result.structuredContent.total,
    read: (name) => ({ name: "read_package", args: { package: name } }),
    readFile: (name, path) => ({ name: "read_package", args: { package: name, path } }),
  },
  "mcp-pkg-local": {
    // Its cache goes into the project unless BOTTLE_CACHE_ROOT says otherwise: keep the fixture clean.
    start: (project, cache) => startServer([PEER], project, { BOTTLE_CACHE_ROOT: cache }),
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
    const first = await timeTool(client, server.scan.name, server.scan.args);
    cold.push(first.times[0]);
    count = server.count(first.result);
  }
  const steady = async (call) => median((await timeTool(client, call.name, call.args, { warmup: WARM_UP, repeat: WARM_RUNS })).times);
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
    console.log(
      `  nixshed core (in process): cold ${ms(core.cold)}, warm ${ms(core.warm)}, warm from the cache file in a new index ${ms(core.fromDisk)}`,
    );
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
    printTable(rows, { indent: "  " });
    if (rows.length === 3 && rows.slice(1).every((row) => !row[1].startsWith("failed"))) {
      const speedup = (column) => (parseFloat(rows[2][column]) / parseFloat(rows[1][column])).toFixed(1);
      console.log(`  nixshed is ${speedup(2)}x (cold) and ${speedup(3)}x (warm) faster at scanning, ${speedup(4)}x at read_package`);
    }
  }
}
