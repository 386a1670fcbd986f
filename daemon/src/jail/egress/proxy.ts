// The egress proxy of one jail: an HTTP proxy on a Unix socket (bound into the jail, where a relay
// on 127.0.0.1 forwards to it) that lets a connection through only to a destination on the jail's
// allow-list. It understands CONNECT (TLS and any other tunnelled protocol) and absolute-form
// requests (plain HTTP), decides by the host name and port the program asked for, resolves names
// itself and connects to the address it resolved, so a name cannot be re-pointed between the check
// and the connection. Non-public addresses (./addresses.ts) are refused unless listed exactly.
// Every decision is logged and kept for the tool result (./report.ts).
import { once } from "node:events";
import { lookup } from "node:dns/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, isIP, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../log.js";
import { nonPublicKind } from "../../config/addresses.js";
import { type AllowList, normalHost } from "../../config/destinations.js";
import { COUNTERS_HEAD, JailCounters } from "./counters.js";
import type { EgressDecision } from "./report.js";

/** Resolves a host name to its addresses (the daemon's resolver; tests inject their own). */
export type Resolver = (host: string) => Promise<string[]>;

export interface EgressProxyOptions {
  allow: AllowList;
  /** Where to listen; default a fresh private directory under the temp dir (removed on close). */
  socketPath?: string;
  resolve?: Resolver;
  log?: Logger;
  /** Names the jail in log lines. */
  label?: string;
  /** Per address tried. */
  connectTimeoutMs?: number;
}

/** A request head larger than this is refused (no legitimate proxy request comes near it). */
const MAX_HEAD_BYTES = 64 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;
/** Headers meant for the proxy (or the hop), not passed on to the server. */
const HOP_HEADERS = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive"]);

/**
 * The system's resolver, except for "localhost" and its subdomains: RFC 6761 (6.3) reserves them for
 * loopback, so they are answered here, the same on every machine and never sent to a DNS server
 * (a minimal root may have no /etc/hosts entry for them at all).
 */
const systemResolver: Resolver = async (host) => {
  if (/^(.+\.)?localhost\.?$/i.test(host)) return ["127.0.0.1", "::1"];
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
};

interface Request {
  method: string;
  /** host:port as asked, for reports. */
  destination: string;
  host: string;
  port: number;
  /** For plain HTTP: the head to send the server (origin-form, hop headers dropped). */
  head?: Buffer;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class EgressProxy {
  readonly decisions: EgressDecision[] = [];
  /** What the jail counted of the ways around this proxy. */
  readonly counters = new JailCounters();
  private readonly sockets = new Set<Socket>();
  /** Connections to servers open now, each holding a read buffer (see MAX_TUNNELS). */
  private tunnels = 0;
  private readonly resolve: Resolver;

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
    private readonly options: EgressProxyOptions,
    private readonly ownDir?: string,
  ) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /**
   * Listens at once: Node binds a Unix socket within listen(), so the socket exists when this
   * returns and a jail can be started on it without waiting. A later failure is logged.
   */
  static open(options: EgressProxyOptions): EgressProxy {
    const ownDir = options.socketPath ? undefined : mkdtempSync(join(tmpdir(), "nixshed-egress-"));
    const socketPath = options.socketPath ?? join(ownDir!, "proxy.sock");
    const server = createServer({ allowHalfOpen: true });
    // Node closes a connection past the cap as it comes: one still sending its request head holds up to MAX_HEAD_BYTES.
    server.maxConnections = MAX_CONNECTIONS;
    const proxy = new EgressProxy(server, socketPath, options, ownDir);
    server.on("connection", (socket) => proxy.accept(socket));
    server.on("error", (error) => options.log?.error(`egress proxy ${socketPath}: ${error.message}`));
    server.listen(socketPath);
    return proxy;
  }

  /** open(), then waits until it listens (or fails). */
  static async listen(options: EgressProxyOptions): Promise<EgressProxy> {
    const proxy = EgressProxy.open(options);
    if (!proxy.server.listening) await once(proxy.server, "listening");
    return proxy;
  }

  /** Stops listening and cuts every connection still open. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.ownDir) rmSync(this.ownDir, { recursive: true, force: true });
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    return socket;
  }

  private accept(client: Socket): void {
    this.track(client);
    client.on("error", () => client.destroy());
    let buffered = Buffer.alloc(0);
    let headRead = false;
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0 && buffered.length <= MAX_HEAD_BYTES) return;
      headRead = true;
      client.off("data", onData);
      client.pause();
      if (end < 0 || end > MAX_HEAD_BYTES) return this.refuse(client, new Refusal(431, "request head too large"));
      if (buffered.toString("latin1", 0, end + 4) === COUNTERS_HEAD) return this.counters.attach(client, buffered.subarray(end + 4));
      void this.serve(client, buffered.subarray(0, end + 4), buffered.subarray(end + 4));
    };
    client.on("data", onData);
    // A client gone before its head ended is done with (allowHalfOpen would keep its end, and its place, open).
    client.once("end", () => {
      if (!headRead) client.destroy();
    });
  }

  private async serve(client: Socket, head: Buffer, rest: Buffer): Promise<void> {
    let request: Request;
    try {
      request = parseHead(head.toString("latin1"));
    } catch (error) {
      return this.refuse(client, error as Refusal);
    }
    let downstream: Downstream | undefined;
    let upstream: Socket;
    try {
      const addresses = await this.decide(request);
      if (this.tunnels >= MAX_TUNNELS) throw new Refusal(503, `${MAX_TUNNELS} connections are open through the proxy already; close one`);
      downstream = this.openTunnel(client);
      upstream = await this.connectFirst(addresses, request.port, downstream);
    } catch (error) {
      downstream?.release();
      const refusal = error instanceof Refusal ? error : new Refusal(502, (error as Error).message);
      // 502: the list allowed it, the network did not.
      this.record({ destination: request.destination, allowed: refusal.status === 502, reason: refusal.message }, request.method);
      return this.refuse(client, refusal);
    }
    this.record({ destination: request.destination, allowed: true }, request.method);
    this.track(upstream).once("close", () => downstream.release());
    if (client.destroyed) return void upstream.destroy();
    if (request.method === "CONNECT") client.write("HTTP/1.1 200 Connection established\r\n\r\n");
    else upstream.write(request.head!);
    if (rest.length > 0) upstream.write(rest);
    splice(client, upstream, downstream);
  }

  /** What comes back from a server to `client`, counted among the connections open through the proxy. */
  private openTunnel(client: Socket): Downstream {
    this.tunnels++;
    return new Downstream(client, () => this.tunnels--);
  }

  /** The addresses the request may be connected to; throws a Refusal saying why there are none. */
  private async decide({ host, port }: Request): Promise<string[]> {
    const { allow } = this.options;
    if (!allow.allowsHost(host, port)) throw new Refusal(403, "not on the jail's network allow-list");
    let addresses: string[];
    if (isIP(host)) {
      addresses = [host];
    } else {
      try {
        addresses = (await this.resolve(host)).map(normalHost);
      } catch (error) {
        throw new Refusal(502, `cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    }
    const refused: string[] = [];
    const usable = addresses.filter((address) => {
      const kind = nonPublicKind(address);
      if (kind === undefined || allow.listsAddress(address, port)) return true;
      refused.push(`${address} (${kind})`);
      return false;
    });
    if (usable.length === 0) {
      if (refused.length === 0) throw new Refusal(502, `${host} has no address`);
      throw new Refusal(403, `resolves to ${refused.join(", ")}, which is not listed (list the exact address to allow it)`);
    }
    return usable;
  }

  private async connectFirst(addresses: string[], port: number, downstream: Downstream): Promise<Socket> {
    const failures: string[] = [];
    for (const address of addresses) {
      try {
        return await connectTo(address, port, this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, downstream);
      } catch (error) {
        failures.push(`${address}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
    throw new Refusal(502, `listed, but the connection failed (${failures.join("; ")})`);
  }

  private record(decision: EgressDecision, method: string): void {
    this.decisions.push(decision);
    const jail = this.options.label ? ` (${this.options.label})` : "";
    const line =
      decision.allowed && !decision.reason ? "allowed" : decision.allowed ? `failed: ${decision.reason}` : `blocked: ${decision.reason}`;
    this.options.log?.info(`egress${jail}: ${method} ${decision.destination} ${line}`);
  }

  private refuse(client: Socket, refusal: Refusal): void {
    const body = `nixshed egress proxy: ${refusal.message}\n`;
    const reason =
      { 400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large", 502: "Bad Gateway" }[refusal.status] ?? "Error";
    client.end(
      `HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    // Whatever the client still sends is read and dropped: closing on unread data would reset the
    // connection before the client reads the answer.
    client.resume();
  }
}

function connectTo(address: string, port: number, timeoutMs: number, downstream: Downstream): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, allowHalfOpen: true, noDelay: true, timeout: timeoutMs, onread: downstream.onread });
    socket.pause();
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once("error", fail);
    socket.once("timeout", () => fail(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    socket.once("connect", () => {
      socket.off("error", fail);
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}

/**
 * Connections open through one proxy at once. Each holds a read buffer in the daemon, and a jailed
 * program may open as many as its descriptors allow (the proxy's socket is bound into the jail), so
 * without a cap it could make the daemon hold gigabytes. Parallel downloads use a few dozen.
 */
export const MAX_TUNNELS = 128;
/**
 * Connections to the proxy at once, tunnels and those still sending their request head: a jailed
 * program opening thousands that never finish one made the daemon hold 400 MB (64 KiB each).
 */
export const MAX_CONNECTIONS = 2 * MAX_TUNNELS;
/** Bytes read from a server at once: downloads are what jails do most, and big reads are what makes them fast. */
const DOWNSTREAM_READ_BYTES = 512 * 1024;
/** Read buffers of closed connections kept for the next ones (a fresh one costs an mmap per connection). */
const spareBuffers: Buffer[] = [];
const MAX_SPARE_BUFFERS = 8;

/**
 * What comes from the server, on its way to the client. Node would read it in 64 KB chunks of fresh
 * memory; read into one buffer of this connection's own instead, a 100 MB download through the proxy
 * runs at about three times the speed (npm run bench -- egress). The buffer is read again only once
 * the client has taken what it held: until then the server's side is paused.
 */
class Downstream {
  // Only ever sent as far as the last read filled it, so what a previous connection left is never sent.
  private readonly buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(DOWNSTREAM_READ_BYTES);
  private upstream?: Socket;

  readonly onread = { buffer: this.buffer, callback: (bytes: number) => this.forward(bytes) };

  constructor(
    private readonly client: Socket,
    private readonly onRelease: () => void,
  ) {}

  /** Gives the buffer back for another connection; the server's socket must be closed. */
  release(): void {
    if (spareBuffers.length < MAX_SPARE_BUFFERS) spareBuffers.push(this.buffer);
    this.onRelease();
  }

  /** Starts reading the server's side (connected paused, so nothing is read before the client is answered). */
  attach(upstream: Socket): void {
    this.upstream = upstream;
    upstream.resume();
  }

  /** Returns false to pause the server's side while the client still holds the buffer's bytes. */
  private forward(bytes: number): boolean {
    this.client.write(this.buffer.subarray(0, bytes), () => this.upstream?.resume());
    return this.client.writableLength === 0;
  }
}

/**
 * Copies both ways; each side's end is passed on after its data (half-close kept, so a client that
 * shuts down its sending side still gets the answer). An error on either side ends both.
 */
function splice(client: Socket, upstream: Socket, downstream: Downstream): void {
  const destroyBoth = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", destroyBoth);
  upstream.on("error", destroyBoth);
  client.pipe(upstream);
  downstream.attach(upstream);
  upstream.on("end", () => client.end());
  // Nobody is left to read the server's answer.
  client.once("close", () => upstream.destroy());
  client.resume();
}

/** host:port of an authority ("example.org:443", "[::1]:8080"); a missing port is `defaultPort`. */
function splitAuthority(authority: string, defaultPort?: number): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(authority);
  const port = match?.[2] !== undefined ? Number(match[2]) : defaultPort;
  if (!match || port === undefined || port < 1 || port > 65535) throw new Refusal(400, `not a host:port: ${authority}`);
  return { host: normalHost(match[1]!), port };
}

/** Reads the request line and headers; a plain HTTP request gets the head the server should see. */
function parseHead(text: string): Request {
  const [requestLine = "", ...headerLines] = text.slice(0, -4).split("\r\n");
  const parts = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(requestLine);
  if (!parts) throw new Refusal(400, "not an HTTP/1.x proxy request");
  const [, method, target, version] = parts as unknown as [string, string, string, string];
  if (method === "CONNECT") {
    const { host, port } = splitAuthority(target);
    return { method, destination: `${host.includes(":") ? `[${host}]` : host}:${port}`, host, port };
  }
  const url = /^http:\/\/([^/?#]+)([^#]*)/i.exec(target);
  if (!url) {
    throw new Refusal(
      400,
      /^https:/i.test(target) ? "https goes through CONNECT" : "send an absolute http:// URL or CONNECT (this is a proxy)",
    );
  }
  const authority = url[1]!.replace(/^[^@]*@/, "");
  const { host, port } = splitAuthority(authority, 80);
  const path = url[2] || "/";
  const headers = headerLines.filter((line) => !HOP_HEADERS.has(line.slice(0, line.indexOf(":")).trim().toLowerCase()));
  if (!headers.some((line) => /^host:/i.test(line))) headers.unshift(`Host: ${authority}`);
  const head = Buffer.from([`${method} ${path} ${version}`, ...headers, "Connection: close", "", ""].join("\r\n"), "latin1");
  return { method, destination: `${host.includes(":") ? `[${host}]` : host}:${port}`, host, port, head };
}
