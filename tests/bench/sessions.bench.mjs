// Session calls over MCP in the harness jail: per-call p50/p95 of python `pass`, bash `:` and node
// `0` (500 calls each, one session per interpreter), session start time per interpreter (create +
// first call, 20 sessions each), beside a one-off `run` of the same code measured in this run.
// Target: session call p50 ≤ 5 ms.
import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const CALLS = 500;
const STARTS = 20;
const ONE_OFF = 50;
const WARMUP = 10;
const cases = [
  { env: "python", code: "pass" },
  { env: "shell", code: ":" },
  { env: "node", code: "0" },
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(label, count, once) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await once(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const result = { p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(`${label.padEnd(40)} p50 ${result.p50.toFixed(1).padStart(6)} ms   p95 ${result.p95.toFixed(1).padStart(6)} ms`);
  return result;
}

export default async function bench() {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: repo, stdio: "ignore" });
  const metadata = execFileSync("bash", ["tests/harness/build-metadata.sh"], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
    .trim()
    .split("\n")
    .pop();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [`${repo}/daemon/dist/cli/main.js`, "serve", "--metadata", metadata, "--log-level", "error"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root" },
  });
  const client = new Client({ name: "nixshed-bench", version: "0" });
  await client.connect(transport);
  const call = async (args) => {
    const result = await client.callTool({ name: "run", arguments: args });
    if (result.isError || result.structuredContent.exit_code !== 0) throw new Error(`run failed: ${JSON.stringify(result)}`);
  };

  const p50s = [];
  for (const { env, code } of cases) {
    const session = `bench-${env}`;
    for (let i = 0; i < WARMUP; i++) await call({ env, code, session });
    p50s.push((await measure(`session call (${env}, ${code})`, CALLS, () => call({ env, code, session }))).p50);
    await client.callTool({ name: "close_session", arguments: { session } });
  }
  for (const { env, code } of cases) {
    await measure(`session start + first call (${env})`, STARTS, async (i) => {
      await call({ env, code, session: `start-${env}-${i}` });
    });
    for (let i = 0; i < STARTS; i++) await client.callTool({ name: "close_session", arguments: { session: `start-${env}-${i}` } });
  }
  for (const { env, code } of cases) await measure(`one-off run, no session (${env}, ${code})`, ONE_OFF, () => call({ env, code }));
  await client.close();
  console.log(`session call p50, worst interpreter: ${Math.max(...p50s).toFixed(1)} ms (target ≤ 5 ms)`);
}
