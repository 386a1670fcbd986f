// `network` in the flake's Nix library: a list of destinations is checked, recorded in the
// artifact's metadata and built into a jail that keeps its own empty network namespace, points the
// proxy variables at a relay on 127.0.0.1 and, given the daemon's egress proxy socket, reaches the
// listed loopback listener through it (curl and Python's urllib) and nothing else. Run by hand
// here (bin/run with the proxy from daemon/src); tests/network.test.ts goes through the daemon.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AllowList } from "../daemon/src/config/destinations.js";
import { EgressProxy } from "../daemon/src/jail/egress/proxy.js";
import { summarise } from "../daemon/src/jail/egress/report.js";
import { build, evaluate } from "./support/nix-lib.js";

const sandbox = (network: string) =>
  `nixshed.lib.mkSandbox { inherit pkgs mounts; name = "net"; interpreter = "python"; packages = [ pkgs.curl ]; network = ${network}; }`;

describe("network in nixshed.lib", () => {
  it("records a list of destinations in the metadata; an empty list is no network", () => {
    expect(
      evaluate(`(${sandbox(`[ "example.org" "*.example.net" "api.example.com:8443" "127.0.0.1:5432" "[::1]:80" ]`)}).metadata.network`),
    ).toEqual(["example.org", "*.example.net", "api.example.com:8443", "127.0.0.1:5432", "[::1]:80"]);
    expect(evaluate(`(${sandbox("[ ]")}).metadata.network`)).toBe(false);
  });

  it("refuses what is not a destination, naming it", () => {
    expect(() => evaluate(`(${sandbox(`[ "example.org" "https://example.org/simple" ]`)}).metadata`)).toThrow(
      /environment "net": network: "https:\/\/example.org\/simple" is not a destination/,
    );
    expect(() => evaluate(`(${sandbox(`"example.org"`)}).metadata`)).toThrow(
      /network must be true, false or a list of destinations, not "example.org"/,
    );
  });

  it("fromToml passes a list through", () => {
    const dir = mkdtempSync(join(tmpdir(), "nixshed-toml-"));
    writeFileSync(join(dir, "nixshed.toml"), `[environments.fetch]\npreset = "shell"\nnetwork = ["example.org", "files.example.org"]\n`);
    expect(evaluate(`(nixshed.lib.fromToml pkgs ${dir}/nixshed.toml).fetch.metadata.network`)).toEqual([
      "example.org",
      "files.example.org",
    ]);
  });
});

describe("a jail with a list of destinations", () => {
  let listed: Server;
  let unlisted: Server;
  let ports: { listed: number; unlisted: number };
  let artifact: string;
  const hits: string[] = [];

  const serve = async (name: string) => {
    const server = createServer((request, response) => {
      hits.push(`${name} ${request.url}`);
      response.end(`${name} answers ${request.url}\n`);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return server;
  };

  beforeAll(async () => {
    listed = await serve("listed");
    unlisted = await serve("unlisted");
    ports = { listed: (listed.address() as AddressInfo).port, unlisted: (unlisted.address() as AddressInfo).port };
    artifact = join(mkdtempSync(join(tmpdir(), "nixshed-net-")), "net");
    build(sandbox(`[ "127.0.0.1:${ports.listed}" ]`), artifact);
  }, 300_000);
  afterAll(() => {
    listed.close();
    unlisted.close();
  });

  /** bin/run with the code on stdin, given the proxy's socket (or none); resolves to its stdout. */
  async function run(code: string, proxy?: EgressProxy): Promise<string> {
    const child = spawn(join(artifact, "bin", "run"), [], {
      env: { PATH: process.env.PATH, ...(proxy ? { NIXSHED_JAIL_EGRESS_SOCKET: proxy.socketPath } : {}) },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end(code);
    await once(child, "close");
    return stdout;
  }

  const fetch = (port: number) => `
import subprocess, urllib.request
try: print("urllib:", urllib.request.urlopen("http://127.0.0.1:${port}/urllib", timeout=10).read().decode().strip())
except Exception as e: print("urllib refused:", e)
curl = subprocess.run(["curl", "-sS", "-m", "10", "http://127.0.0.1:${port}/curl"], capture_output=True, text=True)
print("curl:", curl.stdout.strip() or curl.stderr.strip())
`;

  it("keeps its own empty network namespace, without DNS configuration, with the proxy variables and CA certificates", async () => {
    const probe = `
import os, socket
print(sorted(n for _, n in socket.if_nameindex()), os.path.exists("/etc/resolv.conf"), os.path.exists("/etc/ssl/certs/ca-certificates.crt"))
print(os.environ["HTTPS_PROXY"], os.environ["http_proxy"], os.environ.get("NO_PROXY"))
`;
    expect(await run(probe)).toBe("['lo'] False True\nhttp://127.0.0.1:3128 http://127.0.0.1:3128 None\n");
  }, 60_000);

  it("reaches the listed listener through the proxy with curl and urllib, and not the unlisted one", async () => {
    const proxy = await EgressProxy.listen({ allow: new AllowList([`127.0.0.1:${ports.listed}`]) });
    try {
      expect(await run(fetch(ports.listed), proxy)).toBe(`urllib: listed answers /urllib\ncurl: listed answers /curl\n`);
      const refused = await run(fetch(ports.unlisted), proxy);
      expect(refused).toContain("urllib refused: HTTP Error 403: Forbidden");
      expect(refused).toMatch(
        /curl: curl: \(56\) CONNECT tunnel failed, response 403|curl: nixshed egress proxy: not on the jail's network allow-list/,
      );
      expect(hits.filter((hit) => hit.startsWith("unlisted"))).toEqual([]);
      expect(summarise(proxy.decisions)?.blocked.map((each) => each.destination)).toEqual([`127.0.0.1:${ports.unlisted}`]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("has no network at all without the daemon's proxy (run by hand)", async () => {
    const before = hits.length;
    const output = await run(fetch(ports.listed));
    expect(output).toMatch(/urllib refused: .*Connection refused/);
    expect(output).toMatch(/curl: curl: \(7\)/);
    expect(hits.length).toBe(before);
  }, 60_000);
});
