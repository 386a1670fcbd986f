// Network allow-lists through the daemon, loopback only: a `run`, a session and `nixpkgs_execute`
// with a per-package list reach the listed listener with curl and Python's urllib, are refused the
// unlisted one, and say in their structured result which destinations were allowed and blocked.
// The attacks (direct connections, UDP, DNS, a name resolving to loopback, an untrusted project's
// list) are tests/security/network-escape.test.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patternBytes, sha256 } from "../daemon/test/support/bytes.js";
import { CLI, startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "./harness/extra-mounts.js";
import { fixtureNixpkgsConfig } from "./support/fixture-nixpkgs.js";
import { curlFetch, networkFixture, urllibFetch, type JailOutput as Output, type NetworkFixture } from "./support/network-fixture.js";

let net: NetworkFixture;
let project: string;
let server: ServerHandle;
let url: { listed: string; unlisted: string };

const output = (result: CallToolResult): Output => {
  if (result.isError) throw new Error(textOf(result));
  return result.structuredContent as unknown as Output;
};

beforeAll(async () => {
  net = await networkFixture();
  url = { listed: `http://127.0.0.1:${net.ports.listed}/`, unlisted: `http://127.0.0.1:${net.ports.unlisted}/` };
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-net-project-")));
  mkdirSync(join(project, ".git"));
  const scratch = mkdtempSync(join(tmpdir(), "nixshed-net-"));
  const { config } = fixtureNixpkgsConfig(scratch, `\n[nixpkgs.permissions.curl]\nnetwork = ["127.0.0.1:${net.ports.listed}"]\n`);
  server = await startServer({
    args: [
      "--config",
      config,
      "--project",
      project,
      "--cache-dir",
      join(scratch, "cache"),
      "--state-dir",
      join(scratch, "state"),
      ...harnessMountsFlag(),
    ],
    env: { XDG_CONFIG_HOME: net.configHome },
  });
}, 600_000);

afterAll(async () => {
  await server?.close();
  net?.close();
});

/** Python that tries the listed listener's port directly and resolves a name itself: one line each. */
const directAndDns = (port: number) => `import socket
try: socket.create_connection(("127.0.0.1", ${port}), timeout=5)
except Exception as e: print("direct refused:", type(e).__name__)
try: socket.getaddrinfo("example.org", 443)
except Exception as e: print("dns refused:", type(e).__name__)
`;

describe("an environment with a list of destinations", () => {
  it("is described with its destinations", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.find((tool) => tool.name === "run")?.description).toContain(
      `network to 127.0.0.1:${net.ports.listed} localhost:${net.ports.unlisted}`,
    );
  });

  it("reaches the listed listener with curl and urllib in one run, and reports it", async () => {
    const result = output(
      await server.call("run", { env: "net", code: urllibFetch(`${url.listed}urllib`) + curlFetch(`${url.listed}curl`) }),
    );
    expect(result.stdout).toBe("urllib: listed answers /urllib\ncurl: listed answers /curl\n");
    expect(result.network).toEqual({ allowed: [`127.0.0.1:${net.ports.listed}`], blocked: [] });
    expect(net.arrivals).toEqual(expect.arrayContaining(["listed GET /urllib", "listed GET /curl"]));
  }, 60_000);

  it("carries many connections at once through the jail's relay, every byte in order", async () => {
    const size = 1_000_000;
    const code = `import hashlib, urllib.request
from concurrent.futures import ThreadPoolExecutor
fetch = lambda i: hashlib.sha256(urllib.request.urlopen("${url.listed}bytes/${size}", timeout=30).read()).hexdigest()
with ThreadPoolExecutor(16) as pool: print(sorted(set(pool.map(fetch, range(32)))))`;
    const result = output(await server.call("run", { env: "net", code, timeout_seconds: 60 }));
    expect(result.stdout.trim()).toBe(`['${sha256(patternBytes(size))}']`);
    expect(result.network).toEqual({ allowed: [`127.0.0.1:${net.ports.listed}`], blocked: [] });
  }, 90_000);

  it("is refused the unlisted listener, and says why", async () => {
    const result = output(await server.call("run", { env: "net", code: urllibFetch(url.unlisted) + curlFetch(url.unlisted) }));
    expect(result.stdout).toContain("urllib refused: HTTP Error 403: Forbidden");
    // Plain HTTP through a proxy: curl prints the proxy's answer.
    expect(result.stdout).toContain("curl: nixshed egress proxy: not on the jail's network allow-list");
    expect(result.network).toEqual({
      allowed: [],
      blocked: [{ destination: `127.0.0.1:${net.ports.unlisted}`, reason: "not on the jail's network allow-list" }],
    });
    expect(net.arrivals.filter((arrival) => arrival.startsWith("unlisted"))).toEqual([]);
  }, 60_000);

  it("in a session: each call reports its own destinations, and an interrupted call leaves the network working", async () => {
    const first = output(await server.call("run", { env: "net", session: "web", code: urllibFetch(`${url.listed}first`) }));
    expect(first.stdout).toBe("urllib: listed answers /first\n");
    expect(first.network).toEqual({ allowed: [`127.0.0.1:${net.ports.listed}`], blocked: [] });

    const second = output(await server.call("run", { env: "net", session: "web", code: urllibFetch(url.unlisted) }));
    expect(second.stdout).toContain("urllib refused: HTTP Error 403");
    expect(second.network).toEqual({
      allowed: [],
      blocked: [{ destination: `127.0.0.1:${net.ports.unlisted}`, reason: "not on the jail's network allow-list" }],
    });

    const quiet = output(await server.call("run", { env: "net", session: "web", code: "print('no network used')" }));
    expect(quiet.network).toBeUndefined();

    // Around the proxy: a direct connection, a DNS lookup; each call counts only its own.
    const around = output(await server.call("run", { env: "net", session: "web", code: directAndDns(net.ports.listed) }));
    expect(around.stdout).toMatch(/^direct refused: ConnectionRefusedError\ndns refused: gaierror\n$/);
    expect(around.network?.blocked).toEqual([
      {
        destination: "direct connection",
        reason: expect.stringMatching(/^1 refused: the jail reaches the network only through its proxy/),
      },
      { destination: "DNS or UDP", reason: expect.stringMatching(/^\d+ datagram\(s\) dropped: no DNS or UDP leaves the jail/) },
    ]);
    const again = output(
      await server.call("run", { env: "net", session: "web", code: directAndDns(net.ports.listed).split("\n").slice(0, 3).join("\n") }),
    );
    expect(again.network?.blocked.map((entry) => entry.reason)).toEqual([expect.stringMatching(/^1 refused/)]);

    // A timeout interrupts the code (SIGINT to the jail's processes) but not the relay.
    await server.call("run", { env: "net", session: "web", code: "import time; time.sleep(30)", timeout_seconds: 1 });
    expect(output(await server.call("run", { env: "net", session: "web", code: curlFetch(`${url.listed}after`) })).stdout).toBe(
      "curl: listed answers /after\n",
    );
  }, 120_000);
});

describe("nixpkgs_execute with a per-package list", () => {
  it("reaches the listed listener, is refused the unlisted one, and reports both", async () => {
    const allowed = output(await server.call("nixpkgs_execute", { package: "curl", args: ["-sS", `${url.listed}pkg`] }));
    expect(allowed.stdout).toBe("listed answers /pkg\n");
    expect(allowed.network).toEqual({ allowed: [`127.0.0.1:${net.ports.listed}`], blocked: [] });

    const refused = output(await server.call("nixpkgs_execute", { package: "curl", args: ["-sS", url.unlisted] }));
    expect(refused.stdout).toBe("nixshed egress proxy: not on the jail's network allow-list\n");
    expect(refused.network?.blocked).toEqual([
      { destination: `127.0.0.1:${net.ports.unlisted}`, reason: "not on the jail's network allow-list" },
    ]);
  }, 600_000);

  it("reports a direct connection around the proxy", async () => {
    const direct = output(await server.call("nixpkgs_execute", { package: "curl", args: ["-sS", "--noproxy", "*", url.listed] }));
    expect(direct.stderr).toMatch(/Connection refused|Couldn.t connect/);
    expect(direct.network).toEqual({
      allowed: [],
      blocked: [
        {
          destination: "direct connection",
          reason: expect.stringMatching(/^1 refused: the jail reaches the network only through its proxy/),
        },
      ],
    });
    expect(net.arrivals.filter((arrival) => arrival.includes("/direct"))).toEqual([]);
  }, 600_000);

  it("gives a package without a list no network at all", async () => {
    const result = output(await server.call("nixpkgs_execute", { package: "python3", args: ["-c", urllibFetch(url.listed)] }));
    expect(result.stdout).toMatch(/urllib refused: .*Connection refused/);
    expect(result.network).toBeUndefined();
  }, 600_000);
});

describe("nixshed doctor", () => {
  it("shows each environment's network setting and the packages'", () => {
    const doctor = spawnSync(
      process.execPath,
      [CLI, "doctor", "--json", "--project", project, "--set", `nixpkgs.network=["example.org"]`],
      {
        env: { PATH: process.env.PATH, HOME: net.configHome, XDG_CONFIG_HOME: net.configHome },
        encoding: "utf8",
      },
    );
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; detail: string }[] }).checks.filter(
      (check) => check.name === "network",
    );
    expect(checks.map((check) => check.detail)).toEqual([
      `net: network to 127.0.0.1:${net.ports.listed} localhost:${net.ports.unlisted}`,
      "nixpkgs packages: network to example.org",
    ]);
  }, 60_000);
});
