// `run` of `echo hi` in the shell preset over MCP (p50/p95 of 200 calls), beside a bare bwrap spawn
// of /usr/bin/echo with the same namespaces and bin/run called directly, all measured in this run.
// Target: run p50 ≤ 3× bare bwrap (aim ≤ 15 ms).
import { execFileSync, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const CALLS = 200;
const WARMUP = 10;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(label, once) {
  for (let i = 0; i < WARMUP; i++) await once();
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const result = { p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(`${label.padEnd(34)} p50 ${result.p50.toFixed(1).padStart(6)} ms   p95 ${result.p95.toFixed(1).padStart(6)} ms`);
  return result;
}

function spawnAndWait(program, args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: [input === undefined ? "ignore" : "pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    if (input !== undefined) child.stdin.end(input);
    child.on("error", reject);
    child.on("close", (code) => (code === 0 && out === "hi\n" ? resolve() : reject(new Error(`${program}: exit ${code}, output ${out}`))));
  });
}

export default async function bench() {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: repo, stdio: "ignore" });
  const metadata = execFileSync("bash", ["tests/harness/build-metadata.sh"], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
    .trim()
    .split("\n")
    .pop();
  const shell = JSON.parse(readFileSync(`${metadata}/environments.json`, "utf8")).environments.shell.artifact;

  const bwrapArgs = [
    "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try",
    "--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev",
    "--ro-bind", "/usr", "/usr", "--ro-bind", "/lib", "/lib", "--ro-bind-try", "/lib64", "/lib64",
    "/usr/bin/echo", "hi",
  ];
  const bare = await measure("bare bwrap /usr/bin/echo", () => spawnAndWait("bwrap", bwrapArgs));
  await measure("bin/run (no daemon)", () => spawnAndWait(`${shell}/bin/run`, [], "echo hi"));

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [`${repo}/daemon/dist/cli/main.js`, "serve", "--metadata", metadata, "--log-level", "error"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root" },
  });
  const client = new Client({ name: "nixshed-bench", version: "0" });
  await client.connect(transport);
  const run = await measure("run over MCP (shell, echo hi)", async () => {
    const result = await client.callTool({ name: "run", arguments: { env: "shell", code: "echo hi" } });
    if (result.isError || result.structuredContent.stdout !== "hi\n") throw new Error(`run failed: ${JSON.stringify(result)}`);
  });
  await client.close();
  console.log(`run p50 / bare bwrap p50: ${(run.p50 / bare.p50).toFixed(2)}× (target ≤ 3×, aim ≤ 15 ms)`);
}
