// `run` of `echo hi` in the shell preset over MCP (p50/p95 of 200 calls), beside a bare bwrap spawn
// of /usr/bin/echo with the same namespaces and bin/run called directly, all measured in this run.
// Target: run p50 ≤ 3× bare bwrap (aim ≤ 15 ms).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { buildHarness, printPercentiles, serve, timeCalls } from "./support.mjs";

const CALLS = 200;
const WARMUP = 10;

const measure = async (label, once) => printPercentiles(label, await timeCalls(CALLS, once, { warmup: WARMUP }), 34);

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
  const metadata = buildHarness();
  const shell = JSON.parse(readFileSync(`${metadata}/environments.json`, "utf8")).environments.shell.artifact;

  const bwrapArgs = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-net",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--ro-bind",
    "/usr",
    "/usr",
    "--ro-bind",
    "/lib",
    "/lib",
    "--ro-bind-try",
    "/lib64",
    "/lib64",
    "/usr/bin/echo",
    "hi",
  ];
  const bare = await measure("bare bwrap /usr/bin/echo", () => spawnAndWait("bwrap", bwrapArgs));
  await measure("bin/run (no daemon)", () => spawnAndWait(`${shell}/bin/run`, [], "echo hi"));

  const { client } = await serve(["--metadata", metadata, "--log-level", "error"]);
  const run = await measure("run over MCP (shell, echo hi)", async () => {
    /** @type {any} */
    const result = await client.callTool({ name: "run", arguments: { env: "shell", code: "echo hi" } });
    if (result.isError || result.structuredContent.stdout !== "hi\n") throw new Error(`run failed: ${JSON.stringify(result)}`);
  });
  await client.close();
  console.log(`run p50 / bare bwrap p50: ${(run.p50 / bare.p50).toFixed(2)}× (target ≤ 3×, aim ≤ 15 ms)`);
}
