// The egress proxy against loopback listeners only: two HTTP servers, one listed and one not. What
// it lets through (CONNECT tunnels, absolute-form plain HTTP), what it refuses and why (unlisted
// destinations, names resolving to non-public addresses, addresses in other spellings), and that
// every decision is recorded. Names are resolved by an injected resolver; nothing leaves loopback.
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { dirname } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AllowList } from "../../src/config/destinations.js";
import { EgressProxy, MAX_CONNECTIONS, MAX_TUNNELS, type Resolver } from "../../src/jail/egress/proxy.js";
import { summarise } from "../../src/jail/egress/report.js";
import { patternBytes, sha256 } from "../support/bytes.js";

interface Listener {
  server: Server;
  port: number;
  requests: IncomingMessage[];
}

async function listener(name: string): Promise<Listener> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    response.end(`${name} ${request.method} ${request.url}`);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port, requests };
}

/** Sends `request` on a fresh connection to the proxy and returns everything until it closes. */
async function exchange(proxy: EgressProxy, request: string | Buffer, after?: (socket: Socket, head: string) => void): Promise<string> {
  const socket = connect(proxy.socketPath);
  await once(socket, "connect");
  socket.write(request);
  let text = "";
  let answered = false;
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("latin1");
    if (!answered && text.includes("\r\n\r\n")) {
      answered = true;
      after?.(socket, text);
    }
  });
  await once(socket, "close");
  return text;
}

/** CONNECT, then (if the tunnel opens) one plain request through it. */
const tunnel = (proxy: EgressProxy, authority: string) =>
  exchange(proxy, `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`, (socket, head) => {
    if (head.startsWith("HTTP/1.1 200")) socket.end(`GET /through HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
  });

let listed: Listener;
let unlisted: Listener;
const proxies: EgressProxy[] = [];

async function proxyFor(entries: string[], resolve?: Resolver): Promise<EgressProxy> {
  const proxy = await EgressProxy.listen({ allow: new AllowList(entries), ...(resolve ? { resolve } : {}) });
  proxies.push(proxy);
  return proxy;
}

beforeAll(async () => {
  listed = await listener("listed");
  unlisted = await listener("unlisted");
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  listed.requests.length = 0;
  unlisted.requests.length = 0;
});
afterAll(() => {
  listed.server.close();
  unlisted.server.close();
});

describe("egress proxy", () => {
  it("tunnels CONNECT to a listed destination and refuses an unlisted one", async () => {
    const proxy = await proxyFor([`127.0.0.1:${listed.port}`]);
    const through = await tunnel(proxy, `127.0.0.1:${listed.port}`);
    expect(through).toMatch(/^HTTP\/1\.1 200 Connection established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(through).toContain("listed GET /through");

    const refused = await tunnel(proxy, `127.0.0.1:${unlisted.port}`);
    expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(refused).toContain("not on the jail's network allow-list");
    expect(unlisted.requests).toHaveLength(0);
    expect(summarise(proxy.decisions)).toEqual({
      allowed: [`127.0.0.1:${listed.port}`],
      blocked: [{ destination: `127.0.0.1:${unlisted.port}`, reason: "not on the jail's network allow-list" }],
    });
  });

  it("forwards an absolute-form request in origin form, without proxy headers, and checks its host", async () => {
    const proxy = await proxyFor([`127.0.0.1:${listed.port}`]);
    const answer = await exchange(
      proxy,
      `GET http://127.0.0.1:${listed.port}/a/b?c=d HTTP/1.1\r\nHost: 127.0.0.1:${listed.port}\r\nProxy-Connection: keep-alive\r\nProxy-Authorization: Basic eA==\r\n\r\n`,
    );
    expect(answer).toContain("listed GET /a/b?c=d");
    const seen = listed.requests[0]!;
    expect(seen.headers["proxy-connection"]).toBeUndefined();
    expect(seen.headers["proxy-authorization"]).toBeUndefined();
    expect(seen.headers.connection).toBe("close");

    const refused = await exchange(proxy, `GET http://127.0.0.1:${unlisted.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 403/);
    expect(unlisted.requests).toHaveLength(0);
  });

  it("refuses a listed name that resolves to a loopback address unless that address is listed too", async () => {
    const calls: string[] = [];
    const resolve: Resolver = async (host) => {
      calls.push(host);
      return ["127.0.0.1"];
    };
    const byName = await proxyFor([`api.test:${listed.port}`], resolve);
    const refused = await tunnel(byName, `api.test:${listed.port}`);
    expect(refused).toMatch(/^HTTP\/1\.1 403/);
    expect(summarise(byName.decisions)?.blocked).toEqual([
      {
        destination: `api.test:${listed.port}`,
        reason: "resolves to 127.0.0.1 (a loopback address), which is not listed (list the exact address to allow it)",
      },
    ]);
    expect(listed.requests).toHaveLength(0);

    const withAddress = await proxyFor([`api.test:${listed.port}`, `127.0.0.1:${listed.port}`], resolve);
    expect(await tunnel(withAddress, `API.test.:${listed.port}`)).toContain("listed GET /through");
    // One resolution per request, and the connection goes to the address it gave.
    expect(calls).toEqual(["api.test", "api.test"]);
  });

  it("judges IPv4-mapped IPv6 answers by the IPv4 address inside", async () => {
    const proxy = await proxyFor([`api.test:${listed.port}`, `127.0.0.1:${listed.port}`], async () => ["::ffff:127.0.0.1"]);
    expect(await tunnel(proxy, `api.test:${listed.port}`)).toMatch(/^HTTP\/1\.1 403/);
    expect(proxy.decisions[0]?.reason).toContain("::ffff:7f00:1 (a loopback address");
  });

  it.each([
    ["an IPv4-mapped spelling", (port: number) => `[::ffff:127.0.0.1]:${port}`],
    ["a decimal spelling", (port: number) => `2130706433:${port}`],
    ["a name for the address", (port: number) => `localhost:${port}`],
    ["another port", (port: number) => `127.0.0.1:${port + 1}`],
  ])("refuses a listed address in %s", async (_, authority) => {
    const proxy = await proxyFor([`127.0.0.1:${listed.port}`], async () => ["127.0.0.1"]);
    expect(await tunnel(proxy, authority(listed.port))).toMatch(/^HTTP\/1\.1 403/);
    expect(listed.requests).toHaveLength(0);
  });

  it("reports a listed destination that does not answer, and a name that does not resolve", async () => {
    const closed = await listener("closed");
    closed.server.close();
    await once(closed.server, "close");
    const proxy = await proxyFor([`127.0.0.1:${closed.port}`, "gone.test"], async () => {
      throw Object.assign(new Error("no such name"), { code: "ENOTFOUND" });
    });
    expect(await tunnel(proxy, `127.0.0.1:${closed.port}`)).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    expect(await tunnel(proxy, "gone.test:443")).toMatch(/^HTTP\/1\.1 502/);
    expect(summarise(proxy.decisions)).toEqual({
      allowed: [],
      blocked: [
        { destination: `127.0.0.1:${closed.port}`, reason: `listed, but the connection failed (127.0.0.1: ECONNREFUSED)` },
        { destination: "gone.test:443", reason: "cannot resolve gone.test (ENOTFOUND)" },
      ],
    });
  });

  it("answers what is not a proxy request with an error and keeps serving", async () => {
    const proxy = await proxyFor([`127.0.0.1:${listed.port}`]);
    expect(await exchange(proxy, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(/^HTTP\/1\.1 400[\s\S]*absolute http:\/\/ URL or CONNECT/);
    expect(await exchange(proxy, "GET https://example.org/ HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 400[\s\S]*CONNECT/);
    expect(await exchange(proxy, "hello\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await exchange(proxy, `CONNECT x:1 HTTP/1.1\r\n${"X: y\r\n".repeat(20_000)}\r\n`)).toMatch(/^HTTP\/1\.1 431/);
    expect(await tunnel(proxy, `127.0.0.1:${listed.port}`)).toContain("listed GET /through");
    expect(proxy.decisions).toHaveLength(1);
  });

  it("keeps a tunnel half-open: the answer still comes after the client stops sending", async () => {
    const proxy = await proxyFor([`127.0.0.1:${listed.port}`]);
    const answer = await exchange(
      proxy,
      `CONNECT 127.0.0.1:${listed.port} HTTP/1.1\r\n\r\nGET /early HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`,
      (socket) => socket.end(),
    );
    expect(answer).toContain("listed GET /early");
  });

  it("removes its socket directory and cuts open tunnels on close", async () => {
    const proxy = await proxyFor([`127.0.0.1:${listed.port}`]);
    const socket = connect(proxy.socketPath);
    socket.write(`CONNECT 127.0.0.1:${listed.port} HTTP/1.1\r\n\r\n`);
    await once(socket, "data");
    const closed = once(socket, "close");
    await proxy.close();
    await closed;
    expect(existsSync(dirname(proxy.socketPath))).toBe(false);
  });

  describe("tunnelled bytes", () => {
    /** A raw TCP server on loopback; `serve` gets each connection. */
    async function tcpServer(serve: (socket: Socket) => void): Promise<number> {
      const server = createTcpServer({ allowHalfOpen: true }, serve);
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      servers.push(server);
      return (server.address() as AddressInfo).port;
    }
    const servers: ReturnType<typeof createTcpServer>[] = [];
    afterAll(() => {
      for (const server of servers) server.close();
    });

    /** Opens a CONNECT tunnel and returns the socket with what came after the proxy's answer. */
    async function open(proxy: EgressProxy, port: number): Promise<{ socket: Socket; early: Buffer }> {
      const socket = connect(proxy.socketPath);
      socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
      let head = Buffer.alloc(0);
      while (!head.includes("\r\n\r\n")) head = Buffer.concat([head, (await once(socket, "data"))[0] as Buffer]);
      const end = head.indexOf("\r\n\r\n") + 4;
      expect(head.subarray(0, end).toString()).toBe("HTTP/1.1 200 Connection established\r\n\r\n");
      return { socket, early: head.subarray(end) };
    }

    /** Everything the tunnel still delivers, read slowly (a pause after each chunk) so the proxy must wait for the client. */
    async function readSlowly(socket: Socket, early: Buffer): Promise<Buffer> {
      const chunks = [early];
      socket.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        socket.pause();
        setImmediate(() => socket.resume());
      });
      await once(socket, "end");
      return Buffer.concat(chunks);
    }

    it("carries megabytes both ways byte for byte, however slowly the client reads", async () => {
      const port = await tcpServer((socket) => socket.pipe(socket));
      const proxy = await proxyFor([`127.0.0.1:${port}`]);
      const sent = patternBytes(8 * 1024 * 1024 + 13);
      const { socket, early } = await open(proxy, port);
      socket.end(sent);
      const received = await readSlowly(socket, early);
      expect(received.length).toBe(sent.length);
      expect(sha256(received)).toBe(sha256(sent));
    });

    it("passes on what a server says first (as SSH and SMTP servers do), after the proxy's answer", async () => {
      const port = await tcpServer((socket) => socket.end("SSH-2.0-banner\r\n"));
      const proxy = await proxyFor([`127.0.0.1:${port}`]);
      const { socket, early } = await open(proxy, port);
      expect((await readSlowly(socket, early)).toString()).toBe("SSH-2.0-banner\r\n");
    });

    it(`holds at most ${MAX_TUNNELS} connections open at once, each with its read buffer, and takes more as they close`, async () => {
      // The attack: a jailed program opening tunnels until the daemon runs out of memory.
      const held: Socket[] = [];
      const port = await tcpServer((socket) => held.push(socket));
      const proxy = await proxyFor([`127.0.0.1:${port}`]);
      const tunnels = [];
      for (let i = 0; i < MAX_TUNNELS; i++) tunnels.push(await open(proxy, port));
      const refused = await exchange(proxy, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
      expect(refused).toMatch(/^HTTP\/1\.1 503 .*connections are open through the proxy/s);
      expect(held).toHaveLength(MAX_TUNNELS);
      // One closes at both ends (a half-closed tunnel still counts); the proxy counts it out, and the next gets through.
      tunnels[0]!.socket.destroy();
      held[0]!.destroy();
      let answer = "";
      for (let attempt = 0; attempt < 100 && !answer.startsWith("HTTP/1.1 200"); attempt++) {
        const socket = connect(proxy.socketPath);
        socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
        answer = ((await once(socket, "data"))[0] as Buffer).toString("latin1");
        socket.destroy();
      }
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      for (const { socket } of tunnels) socket.destroy();
    });

    it(`holds at most ${MAX_CONNECTIONS} connections at all, those still sending their request head included`, async () => {
      // The attack: thousands of connections each sending most of a request head, never its end.
      const proxy = await proxyFor(["127.0.0.1:9"]);
      const pending: Socket[] = [];
      // once() would reject on the error a refused connection's write may get (EPIPE): the close is what counts.
      const closing = (socket: Socket) => new Promise((resolve) => socket.once("close", resolve));
      for (let i = 0; i < MAX_CONNECTIONS; i++) {
        const socket = connect(proxy.socketPath).on("error", () => {});
        await once(socket, "connect");
        socket.write(`CONNECT 127.0.0.1:9 HTTP/1.1\r\nX-Pad: ${"p".repeat(1000)}`);
        pending.push(socket);
      }
      // The one past the cap is closed as it comes (writing to it may fail: EPIPE).
      const over = connect(proxy.socketPath).on("error", () => {});
      over.write("CONNECT 127.0.0.1:9 HTTP/1.1\r\n");
      await closing(over);
      expect(pending.filter((socket) => socket.destroyed || socket.readyState !== "open")).toEqual([]);
      // One ends: the next is taken again.
      const closed = once(pending[0]!, "close");
      pending[0]!.destroy();
      await closed;
      let answer = "";
      for (let attempt = 0; attempt < 100 && answer === ""; attempt++) {
        const socket = connect(proxy.socketPath).on("error", () => {});
        socket.write("GET http://127.0.0.1:10/ HTTP/1.1\r\nHost: 127.0.0.1:10\r\n\r\n");
        socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
        await closing(socket);
      }
      expect(answer).toMatch(/^HTTP\/1\.1 403/);
      for (const socket of pending) socket.destroy();
    });

    it("never sends one connection what an earlier one left in the proxy's read buffer", async () => {
      let served = 0;
      const port = await tcpServer((socket) => socket.end(served++ === 0 ? Buffer.alloc(3 * 1024 * 1024, "a") : "bb"));
      const proxy = await proxyFor([`127.0.0.1:${port}`]);
      const first = await open(proxy, port);
      expect((await readSlowly(first.socket, first.early)).length).toBe(3 * 1024 * 1024);
      await once(first.socket, "close");
      const second = await open(proxy, port);
      expect((await readSlowly(second.socket, second.early)).toString()).toBe("bb");
    });
  });
});
