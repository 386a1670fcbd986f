// The egress proxy (daemon/src/jail/egress) beside a direct loopback connection, measured in the
// same run: the time one connection and a small request take (p50 of 300), and the throughput of a
// 100 MB body (median of 7, after one round not counted). The server and the client each run in a
// worker thread of their own, the proxy on the main thread, as in the daemon. The whole way a
// jail's program goes is measured too: through the jail's relay (nix/backends/egress-relay.nix,
// built with the harness's stand-in) and then the proxy. Targets: ≤ 1 ms added per connection,
// throughput within 10% of direct.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { CONNECTIONS } from "./egress-peers.mjs";
import { startRelay } from "../support/egress-relay.mjs";
import { REPO, median, percentile, printTable } from "./support.mjs";

const ROUNDS = 7;

const worker = (data) => new Worker(new URL("./egress-peers.mjs", import.meta.url), { workerData: data });

async function inWorker(data) {
  const client = worker(data);
  const [result] = await once(client, "message");
  await client.terminate();
  return result;
}

/** The relay a jail runs in front of the proxy (nix/backends/egress-relay.nix, built with the harness's stand-in). */
function relayProgram() {
  const expr = `import ${REPO}nix/backends/egress-relay.nix { inherit (import ${REPO}tests/harness/pkgs.nix { }) runCommandCC; }`;
  try {
    const built = execFileSync(
      "nix",
      [
        "--extra-experimental-features",
        "nix-command flakes",
        "--option",
        "substituters",
        "",
        "build",
        "--impure",
        "--no-link",
        "--json",
        "--expr",
        expr,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
    );
    return `${JSON.parse(built)[0].outputs.out}/bin/nixshed-egress-relay`;
  } catch {
    return undefined;
  }
}

export default async function bench() {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: REPO, stdio: "ignore" });
  const { EgressProxy } = await import(`${REPO}daemon/dist/jail/egress/proxy.js`);
  const { AllowList } = await import(`${REPO}daemon/dist/config/destinations.js`);

  const server = worker({ role: "server" });
  const [port] = await once(server, "message");
  const egress = await EgressProxy.listen({ allow: new AllowList([`127.0.0.1:${port}`]) });
  const program = relayProgram();
  const relayed = program && (await startRelay(program, egress.socketPath).catch(() => undefined));
  const ways = {
    direct: { port },
    proxy: { port, proxy: egress.socketPath },
    ...(relayed ? { relay: { port, proxy: { host: "127.0.0.1", port: relayed.port } } } : {}),
  };
  if (!relayed) console.log("(the jail's relay could not be built or started here: its columns are left out)");

  const latency = {};
  for (const [way, target] of Object.entries(ways)) latency[way] = await inWorker({ role: "client", task: "latency", ...target });
  const throughput = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
  // Round 0 is not counted: the server's first transfer runs before its code is optimised.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [way, target] of Object.entries(ways)) {
      const mbs = await inWorker({ role: "client", task: "throughput", ...target });
      if (round > 0) throughput[way].push(mbs);
    }
  }
  relayed?.relay.kill();
  await egress.close();
  await server.terminate();

  const through = Object.keys(ways).filter((way) => way !== "direct");
  const ms = (value) => `${value.toFixed(2)} ms`;
  const row = (label, value, difference, target) => [
    label,
    value("direct"),
    ...through.flatMap((way) => [value(way), difference(way)]),
    target,
  ];
  const at = (q) => (way) => percentile(latency[way], q);
  const mbs = (way) => median(throughput[way]);
  const heads = { proxy: "the egress proxy", relay: "a jail's relay + proxy" };
  printTable([
    ["", "direct loopback", ...through.flatMap((way) => [heads[way], "difference"]), "target (proxy)"],
    row(
      `connection + request p50 (${CONNECTIONS})`,
      (way) => ms(at(50)(way)),
      (way) => `+${ms(at(50)(way) - at(50)("direct"))}`,
      "≤ +1 ms",
    ),
    row(
      "connection + request p95",
      (way) => ms(at(95)(way)),
      (way) => `+${ms(at(95)(way) - at(95)("direct"))}`,
      "",
    ),
    row(
      `100 MB body, median of ${ROUNDS}`,
      (way) => `${mbs(way).toFixed(0)} MB/s`,
      (way) => `${((mbs(way) / mbs("direct") - 1) * 100).toFixed(1)}%`,
      "within 10%",
    ),
  ]);
}
