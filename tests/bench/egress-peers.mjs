// The two ends of the egress bench (./egress.bench.mjs), each run in a worker thread of its own: an
// HTTP server and a client that asks it directly or through the proxy. Only Node's own modules are
// imported here: with the MCP SDK loaded (as ./support.mjs does), a worker moved a 100 MB body at a
// quarter of the speed, and the direct transfer the proxy is measured against must not be held back.
import { once } from "node:events";
import { createServer, connect } from "node:net";
import { isMainThread, parentPort, workerData } from "node:worker_threads";

/** The body of "/big". */
export const BODY_BYTES = 100 * 1024 * 1024;
export const CONNECTIONS = 300;
export const WARMUP = 30;

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

/**
 * One request, through a proxy (CONNECT first; `proxy` is what net.connect takes: the proxy's socket
 * path, or the port of a relay in front of it) or straight to the server; resolves to the bytes received.
 */
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
