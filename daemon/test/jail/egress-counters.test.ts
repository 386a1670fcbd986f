// A jail's counts of the ways around its proxy, as the proxy reads them from its counters
// connection: a run's final line, a session's answers to the daemon's questions, and what a jail
// that lies or goes quiet gets (a cut connection, counts that never go below nothing, no wait).
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AllowList } from "../../src/config/destinations.js";
import { countsSince, NO_COUNTS } from "../../src/jail/egress/counters.js";
import { egressMark, egressSince } from "../../src/jail/egress/jail-egress.js";
import { EgressProxy } from "../../src/jail/egress/proxy.js";

const proxies: EgressProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

async function counting(): Promise<{ proxy: EgressProxy; socket: Socket }> {
  const proxy = await EgressProxy.listen({ allow: new AllowList(["example.org"]) });
  proxies.push(proxy);
  const socket = connect(proxy.socketPath);
  await once(socket, "connect");
  // The proxy cuts it at close (and a lying jail's at once).
  socket.on("error", () => {});
  socket.write("NIXSHED-COUNTERS\r\n\r\nnow 0 0 0\n");
  // Read by the proxy once its first line counts.
  await vi.waitFor(() => expect(proxy.counters.latest).not.toBe(NO_COUNTS));
  return { proxy, socket };
}

describe("a run's counts", () => {
  it("arrive as one final line, after which the proxy ends the connection", async () => {
    const { proxy, socket } = await counting();
    socket.end("final 2 3 1\n");
    await once(socket, "close");
    expect(proxy.counters.latest).toEqual({ refused: 2, datagrams: 3, noRoute: 1 });
    expect(await egressSince(proxy)).toEqual({
      network: {
        allowed: [],
        blocked: [
          { destination: "direct connection", reason: expect.stringMatching(/^2 refused: .*through its proxy/) },
          { destination: "DNS or UDP", reason: expect.stringMatching(/^3 datagram\(s\) dropped/) },
          { destination: "direct to an address", reason: expect.stringMatching(/^1 refused: no route/) },
        ],
      },
    });
  });

  it("of nothing make no report", async () => {
    const { proxy, socket } = await counting();
    socket.end("final 0 0 0\n");
    await once(socket, "close");
    expect(await egressSince(proxy)).toEqual({});
  });
});

describe("a session's counts", () => {
  it("are asked for at each call's end, and each call reports what it added", async () => {
    const { proxy, socket } = await counting();
    let total = 0;
    socket.on("data", () => socket.write(`now ${++total} 0 0\n`));
    const first = egressMark(proxy);
    expect((await egressSince(proxy, first)).network?.blocked).toEqual([
      { destination: "direct connection", reason: expect.stringMatching(/^1 refused/) },
    ]);
    const second = egressMark(proxy);
    total += 2;
    expect((await egressSince(proxy, second)).network?.blocked[0]?.reason).toMatch(/^3 refused/);
  });

  it("from a jail that stopped answering are asked for once, not at every call", async () => {
    const { proxy, socket } = await counting();
    let questions = "";
    socket.on("data", (chunk: Buffer) => {
      questions += chunk.toString();
    });
    expect(await egressSince(proxy)).toEqual({});
    expect(await egressSince(proxy)).toEqual({});
    expect(questions).toBe("\n");
  });
});

describe("a jail that lies", () => {
  it("is cut off at a line that is not counts", async () => {
    const { proxy, socket } = await counting();
    socket.write("now 1 1 1\nrm -rf /\n");
    await once(socket, "close");
    expect(proxy.counters.latest).toEqual({ refused: 1, datagrams: 1, noRoute: 1 });
  });

  it("is cut off at an endless line", async () => {
    const { socket } = await counting();
    socket.write("9".repeat(10_000));
    await once(socket, "close");
  });

  it("cannot make a later call's counts negative", () => {
    expect(countsSince({ refused: 5, datagrams: 5, noRoute: 5 }, NO_COUNTS)).toEqual(NO_COUNTS);
  });
});
