// What the network tests reach, all on the host's loopback: two HTTP listeners (one listed, one
// not), a UDP listener and a stand-in DNS server (each records what arrives), and a python
// sandbox with curl whose allow-list names the listed listener by address and the unlisted one
// only by a name ("localhost") that resolves to loopback. Nothing here sends traffic elsewhere.
import { once } from "node:events";
import { mkdirSync, mkdtempSync } from "node:fs";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { patternBytes } from "../../daemon/test/support/bytes.js";
import { build } from "./nix-lib.js";

/** A run's or execution's structured result, the fields the network tests read. */
export interface JailOutput {
  stdout: string;
  stderr: string;
  network?: { allowed: string[]; blocked: { destination: string; reason: string }[] };
}

export interface NetworkFixture {
  ports: { listed: number; unlisted: number; udp: number; dns: number };
  /** What each listener received: "listed GET /path", "udp …", "dns …". */
  arrivals: string[];
  /** XDG_CONFIG_HOME whose nixshed/sandboxes holds the `net` sandbox. */
  configHome: string;
  close(): void;
}

async function http(name: string, arrivals: string[]): Promise<Server> {
  const server = createServer((request, response) => {
    arrivals.push(`${name} ${request.method} ${request.url}`);
    const bytes = /^\/bytes\/(\d+)$/.exec(request.url ?? "");
    // "/bytes/N": N bytes of patternBytes.
    response.end(bytes ? patternBytes(Number(bytes[1])) : `${name} answers ${request.url}\n`);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

async function udp(name: string, arrivals: string[]): Promise<UdpSocket> {
  const socket = createSocket("udp4");
  socket.on("message", (message) => arrivals.push(`${name} ${message.length} bytes`));
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  return socket;
}

const portOf = (server: Server | UdpSocket) => (server.address() as AddressInfo).port;

/** The listed destinations of the `net` sandbox, given the listeners' ports. */
export const netAllowList = (ports: NetworkFixture["ports"]) => [`127.0.0.1:${ports.listed}`, `localhost:${ports.unlisted}`];

export async function networkFixture(): Promise<NetworkFixture> {
  const arrivals: string[] = [];
  const listed = await http("listed", arrivals);
  const unlisted = await http("unlisted", arrivals);
  const datagrams = await udp("udp", arrivals);
  const dns = await udp("dns", arrivals);
  const ports = { listed: portOf(listed), unlisted: portOf(unlisted), udp: portOf(datagrams), dns: portOf(dns) };
  const configHome = mkdtempSync(join(tmpdir(), "nixshed-net-home-"));
  const sandboxes = join(configHome, "nixshed", "sandboxes");
  mkdirSync(sandboxes, { recursive: true });
  const network = netAllowList(ports)
    .map((destination) => JSON.stringify(destination))
    .join(" ");
  build(
    `nixshed.lib.mkSandbox { inherit pkgs mounts; name = "net"; description = "allow-listed network"; interpreter = "python"; packages = [ pkgs.curl ]; network = [ ${network} ]; }`,
    join(sandboxes, "net"),
  );
  return {
    ports,
    arrivals,
    configHome,
    close() {
      listed.close();
      unlisted.close();
      datagrams.close();
      dns.close();
    },
  };
}

/** Python for the jail: fetches a URL with urllib (through the proxy variables) and prints what happened. */
export const urllibFetch = (url: string) => `
import urllib.request
try: print("urllib:", urllib.request.urlopen(${JSON.stringify(url)}, timeout=10).read().decode().strip())
except Exception as e: print("urllib refused:", e)
`;

/** Python for the jail: the same with curl. */
export const curlFetch = (url: string) => `
import subprocess
r = subprocess.run(["curl", "-sS", "-m", "10", ${JSON.stringify(url)}], capture_output=True, text=True)
print("curl:", r.stdout.strip() or r.stderr.strip())
`;
