// The egress proxy (daemon/src/jail/egress) beside a direct loopback connection, measured in the
// same run: the time one connection and a small request take (p50 of 300), and the throughput of a
// 100 MB body (median of 5). The server and the client each run in a worker thread of their own, the
// proxy on the main thread, as in the daemon. Targets: ≤ 1 ms added per connection, throughput
// within 10% of direct.
import { once } from "node:events";
import { createServer, connect } from "node:net";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { CLI, REPO, median, percentile, printTable } from "./support.mjs";

const CONNECTIONS = 300;
const WARMUP = 30;
const BODY_BYTES = 100 * 1024 * 1024;
const ROUNDS = 5;

// --- worker roles ---------------------------------------------------------------------------

/** HTTP/1.1 with Connection: close: "/small" answers 2 bytes, "/big" answers BODY_BYTES. */
async function serverRole() {
  const chunk = Buffer.alloc(1024 * 1024, 120);
  const server = createServer((socket) => {
    socket.once("data", async (head) => {
      const big = head.toString().startsWith("GET /big");
      const length = big ? BODY_BYTES : 2;
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`);
      if (!big) return void socket.end("ok");
      for (let sent = 0; sent < length; sent += chunk.length) {
        if (!socket.write(chunk)) await once(socket, "drain");
      }
      socket.end();
    });
    socket.on("error", () => {});
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  parentPort.postMessage(/** @type {import("node:net").AddressInfo} */ (server.address()).port);
}

/** One request, through the proxy's socket (CONNECT first) or straight to the server; resolves to the bytes received. */
function request({ port, proxy, path }) {
  return new Promise((resolve, reject) => {
    const socket = proxy ? connect(proxy) : connect(port, "127.0.0.1");
    const get = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
    let tunnelled = !proxy;
    let received = 0;
    let pending = Buffer.alloc(0);
    socket.on("connect", () => socket.write(proxy ? `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n` : get));
    socket.on("data", (chunk) => {
      if (tunnelled) {
        received += chunk.length;
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf("\r\n\r\n");
      if (end < 0) return;
      if (!pending.subarray(0, 12).toString().endsWith("200")) return reject(new Error(pending.toString()));
      tunnelled = true;
      received += pending.length - end - 4;
      socket.write(get);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

async function clientRole({ port, proxy, task }) {
  if (task === "latency") {
    const times = [];
    for (let i = 0; i < WARMUP + CONNECTIONS; i++) {
      const started = performance.now();
      await request({ port, proxy, path: "/small" });
      if (i >= WARMUP) times.push(performance.now() - started);
    }
    parentPort.postMessage(times);
  } else {
    const started = performance.now();
    const bytes = await request({ port, proxy, path: "/big" });
    const seconds = (performance.now() - started) / 1000;
    if (bytes < BODY_BYTES) throw new Error(`only ${bytes} bytes arrived`);
    parentPort.postMessage(BODY_BYTES / 1024 / 1024 / seconds);
  }
}

if (!isMainThread) {
  if (workerData.role === "server") await serverRole();
  else await clientRole(workerData);
}

// --- the bench -----------------------------------------------------------------------------

const worker = (data) => new Worker(new URL(import.meta.url), { workerData: data });

async function inWorker(data) {
  const client = worker(data);
  const [result] = await once(client, "message");
  await client.terminate();
  return result;
}

export default async function bench() {
  void CLI;
  const { execFileSync } = await import("node:child_process");
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
  for (let round = 0; round < ROUNDS; round++) {
    for (const [way, target] of Object.entries(ways))
      throughput[way].push(await inWorker({ role: "client", task: "throughput", ...target }));
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
