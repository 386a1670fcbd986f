// Session calls over MCP in the harness jail: per-call p50/p95 of python `pass`, bash `:` and node
// `0` (500 calls each, one session per interpreter), session start time per interpreter (create +
// first call, 20 sessions each), beside a one-off `run` of the same code measured in this run.
// Target: session call p50 ≤ 5 ms.
import { buildHarness, printPercentiles, serve, timeCalls } from "./support.mjs";

const CALLS = 500;
const STARTS = 20;
const ONE_OFF = 50;
const WARMUP = 10;
const cases = [
  { env: "python", code: "pass" },
  { env: "shell", code: ":" },
  { env: "node", code: "0" },
];

const measure = async (label, count, once, options) => printPercentiles(label, await timeCalls(count, once, options), 40);

export default async function bench() {
  const { client } = await serve(["--metadata", buildHarness(), "--log-level", "error"]);
  const call = async (args) => {
    /** @type {any} */
    const result = await client.callTool({ name: "run", arguments: args });
    if (result.isError || result.structuredContent.exit_code !== 0) throw new Error(`run failed: ${JSON.stringify(result)}`);
  };

  const p50s = [];
  for (const { env, code } of cases) {
    const session = `bench-${env}`;
    p50s.push((await measure(`session call (${env}, ${code})`, CALLS, () => call({ env, code, session }), { warmup: WARMUP })).p50);
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
