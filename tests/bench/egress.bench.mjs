// The egress proxy (daemon/src/jail/egress) beside a direct loopback connection, measured in the
// same run: the time one connection and a small request take (p50 of 300), and the throughput of a
// 100 MB body (median of 7, after one round not counted). The server and the client each run in a worker thread of their own, the
// proxy on the main thread, as in the daemon. Targets: ≤ 1 ms added per connection, throughput
// within 10% of direct.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { CONNECTIONS } from "./egress-peers.mjs";
import { REPO, median, percentile, printTable } from "./support.mjs";

const ROUNDS = 7;

const worker = (data) => new Worker(new URL("./egress-peers.mjs", import.meta.url), { workerData: data });

async function inWorker(data) {
  const client = worker(data);
  const [result] = await once(client, "message");
  await client.terminate();
  return result;
}

export default async function bench() {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: REPO, stdio: "ignore" });
  const { EgressProxy } = await import(`${REPO}daemon/dist/jail/egress/proxy.js`);
  const { AllowList } = await import(`${REPO}daemon/dist/config/destinations.js`);

  const server = worker({ role: "server" });
  const [port] = await once(server, "message");
  const egress = await EgressProxy.listen({ allow: new AllowList([`127.0.0.1:${port}`]) });
  const ways = { direct: { port }, proxied: { port, proxy: egress.socketPath } };

  const latency = {};
  for (const [way, target] of Object.entries(ways)) latency[way] = await inWorker({ role: "client", task: "latency", ...target });
  const throughput = { direct: [], proxied: [] };
  // Round 0 is not counted: the server's first transfer runs before its code is optimised.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [way, target] of Object.entries(ways)) {
      const mbs = await inWorker({ role: "client", task: "throughput", ...target });
      if (round > 0) throughput[way].push(mbs);
    }
  }
  await egress.close();
  await server.terminate();

  const p = (way, q) => `${percentile(latency[way], q).toFixed(2)} ms`;
  printTable([
    ["", "direct loopback", "through the egress proxy", "difference", "target"],
    [
      `connection + request p50 (${CONNECTIONS})`,
      p("direct", 50),
      p("proxied", 50),
      `+${(median(latency.proxied) - median(latency.direct)).toFixed(2)} ms`,
      "≤ +1 ms",
    ],
    [
      `connection + request p95`,
      p("direct", 95),
      p("proxied", 95),
      `+${(percentile(latency.proxied, 95) - percentile(latency.direct, 95)).toFixed(2)} ms`,
      "",
    ],
    [
      `100 MB body, median of ${ROUNDS}`,
      `${median(throughput.direct).toFixed(0)} MB/s`,
      `${median(throughput.proxied).toFixed(0)} MB/s`,
      `${((median(throughput.proxied) / median(throughput.direct) - 1) * 100).toFixed(1)}%`,
      "within 10%",
    ],
  ]);
}
