// The relay a jail with a network allow-list runs (nix/backends/egress-relay.c), built as the jail
// builds it and run on the host between a TCP client and a Unix socket standing for the proxy: every
// byte in order both ways when neither side keeps up, the half-close passed on, many connections
// at once in one process, and a program that opens connections until the relay runs out of
// descriptors makes it wait, not spin, and try again when none of its own will close. tests/network.test.ts
// uses it inside real jails.
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patternBytes, sha256 } from "../daemon/test/support/bytes.js";
import { startRelay } from "./support/egress-relay.mjs";
import { build } from "./support/nix-lib.js";

const source = new URL("../nix/backends/egress-relay.nix", import.meta.url).pathname;
let dir: string;
let program: string;
let relay: ChildProcess;
let port: number;
let proxy: Server;
/** What the stand-in proxy does with each connection. */
let serve: (socket: Socket) => void = () => {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "nixshed-relay-"));
  build(`import ${source} { inherit (pkgs) runCommandCC; }`, join(dir, "relay"));
  program = join(dir, "relay/bin/nixshed-egress-relay");
  proxy = createServer({ allowHalfOpen: true }, (socket) => serve(socket));
  proxy.listen(join(dir, "proxy.sock"));
  await once(proxy, "listening");
  ({ relay, port } = await startRelay(program, join(dir, "proxy.sock")));
}, 120_000);

afterAll(() => {
  relay?.kill();
  proxy?.close();
});

async function readAll(socket: Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  await once(socket, "end");
  return Buffer.concat(chunks);
}

describe("the egress relay", () => {
  it("carries megabytes both ways in order, one way flowing while the other waits for a reader", async () => {
    // More than every buffer on the way holds: the relay meets a client that takes nothing.
    const down = patternBytes(64 * 1024 * 1024, 7);
    const up = patternBytes(16 * 1024 * 1024, 13);
    let received!: Promise<Buffer>;
    let accepted!: () => void;
    const served = new Promise<void>((resolve) => (accepted = resolve));
    serve = (socket) => {
      socket.end(down);
      received = readAll(socket);
      accepted();
    };
    const client = connect(port, "127.0.0.1");
    client.pause();
    client.end(up);
    await served;
    // The client reads only once all it sent has arrived, while the answer was stuck on the way.
    expect(sha256(await received)).toBe(sha256(up));
    const got = readAll(client);
    client.resume();
    expect(sha256(await got)).toBe(sha256(down));
  });

  it("passes a half-close on: the answer still comes after the client stops sending", async () => {
    serve = (socket) => void readAll(socket).then((request) => socket.end(`answer to ${request.toString()}`));
    const client = connect(port, "127.0.0.1");
    client.end("question");
    expect((await readAll(client)).toString()).toBe("answer to question");
  });

  it("serves many connections at once from one process", async () => {
    serve = (socket) => void readAll(socket).then((request) => socket.end(request.toString().toUpperCase()));
    const answers = await Promise.all(
      Array.from({ length: 64 }, async (_, i) => {
        const client = connect(port, "127.0.0.1");
        client.end(`connection ${i}`);
        return (await readAll(client)).toString();
      }),
    );
    expect(answers).toEqual(Array.from({ length: 64 }, (_, i) => `CONNECTION ${i}`));
    expect(relay.exitCode).toBeNull();
  });

  it("drops a connection the proxy does not take, and keeps serving", async () => {
    serve = (socket) => socket.destroy();
    const dropped = connect(port, "127.0.0.1");
    dropped.end("x");
    await once(dropped, "close");
    serve = (socket) => socket.end("still here");
    const client = connect(port, "127.0.0.1");
    client.end();
    expect((await readAll(client)).toString()).toBe("still here");
  });

  it("drops a connection when no proxy listens, and keeps serving", async () => {
    const orphan = await startRelay(program, join(dir, "nobody.sock"));
    try {
      const client = connect(orphan.port, "127.0.0.1").on("error", () => {});
      client.end("x");
      await new Promise((resolve) => client.on("close", resolve));
      expect(orphan.relay.exitCode).toBeNull();
    } finally {
      orphan.relay.kill();
    }
  });

  it("out of descriptors, waits for a connection to close instead of spinning, then serves again", async () => {
    // Its own proxy, which holds every connection open until told to answer; 15 descriptors: a
    // handful of connections fill them, the next ones wait in the listen queue.
    const held: Socket[] = [];
    let answer = false;
    const holder = createServer({ allowHalfOpen: true }, (socket) => {
      if (answer) void readAll(socket).then((request) => socket.end(request));
      else held.push(socket);
    });
    holder.listen(join(dir, "holder.sock"));
    await once(holder, "listening");
    const limited = await startRelay(program, join(dir, "holder.sock"), ["bash", "-c", 'ulimit -n 15 && exec "$@"', "relay"]);
    try {
      const clients = Array.from({ length: 12 }, () => connect(limited.port, "127.0.0.1").on("error", () => {}));
      await Promise.all(clients.map((client) => once(client, "connect")));
      // What the limited relay burns while 300 requests go through the other one.
      const ticks = () => {
        const fields = readFileSync(`/proc/${limited.relay.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return Number(fields[11]) + Number(fields[12]);
      };
      const before = ticks();
      serve = (socket) => void readAll(socket).then((request) => socket.end(request));
      for (let i = 0; i < 300; i++) {
        const client = connect(port, "127.0.0.1");
        client.end("ping");
        await readAll(client);
      }
      expect(ticks() - before).toBeLessThanOrEqual(2);
      // Connections closing make room: a new one is served.
      answer = true;
      for (const socket of held) socket.destroy();
      for (const client of clients) client.destroy();
      const late = connect(limited.port, "127.0.0.1");
      late.end("late");
      expect((await readAll(late)).toString()).toBe("late");
    } finally {
      limited.relay.kill();
      holder.close();
    }
  });

  it("out of descriptors with no connection of its own to wait for, tries again until it can serve", async () => {
    // 5 descriptors: its standard streams, the listener and the epoll set; not one for the proxy.
    serve = (socket) => void readAll(socket).then((request) => socket.end(request));
    const starved = await startRelay(program, join(dir, "proxy.sock"), ["bash", "-c", 'ulimit -Sn 5 && exec "$@"', "relay"]);
    try {
      const client = connect(starved.port, "127.0.0.1");
      await once(client, "connect");
      client.end("after all");
      const answer = readAll(client);
      // Descriptors come free (here: its limit is raised), as they do when other processes close theirs.
      execFileSync("prlimit", [`--pid=${starved.relay.pid}`, "--nofile=64:"]);
      expect((await answer).toString()).toBe("after all");
    } finally {
      starved.relay.kill();
    }
  });
});
