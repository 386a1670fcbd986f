// A jailed attacker against a network allow-list, loopback only: from a jail whose list names one
// host listener by address and another only by a name that resolves to loopback, every way out
// but the listed one is refused (the unlisted listener, the listed address in another spelling, a
// listed name resolving to loopback, a metadata-service address, a direct connection, a UDP packet,
// a DNS query), each is reported in the structured result (the proxy's refusals with the
// destination, the others as the jail's kernel counted them) and fails in the program; nothing
// reaches a host listener but the listed one. A list set by an untrusted
// project file is ignored: the jail stays without network.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "../harness/extra-mounts.js";
import { fixtureNixpkgs } from "../support/fixture-nixpkgs.js";
import { networkFixture, urllibFetch, type JailOutput as Output, type NetworkFixture } from "../support/network-fixture.js";

let net: NetworkFixture;
let project: string;
let scratch: string;

beforeAll(async () => {
  net = await networkFixture();
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-net-attack-")));
  mkdirSync(join(project, ".git"));
  scratch = mkdtempSync(join(tmpdir(), "nixshed-net-attack-scratch-"));
}, 600_000);

afterAll(() => net?.close());

const serve = (args: string[]) =>
  startServer({
    args: ["--project", project, "--cache-dir", join(scratch, "cache"), "--state-dir", join(scratch, "state"), ...args],
    env: { XDG_CONFIG_HOME: net.configHome },
  });

/** Each attempt prints one line: "<name>: <what happened>". */
const attacks = (ports: NetworkFixture["ports"]) => `
import socket, urllib.request

def attempt(name, action):
    try: print(f"{name}: got {action()}")
    except Exception as e: print(f"{name}: refused ({type(e).__name__}: {e})")

def fetch(url):
    return urllib.request.urlopen(url, timeout=10).read().decode().strip()

def direct():
    with socket.create_connection(("127.0.0.1", ${ports.listed}), timeout=5) as s:
        s.sendall(b"GET /direct HTTP/1.0\\r\\n\\r\\n")
        return s.recv(100)

def udp():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(b"hello", ("127.0.0.1", ${ports.udp}))
    return "sent"

def dns_packet():
    query = b"\\x12\\x34\\x01\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x07example\\x03com\\x00\\x00\\x01\\x00\\x01"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(2)
        s.sendto(query, ("127.0.0.1", ${ports.dns}))
        return s.recv(512)

attempt("unlisted", lambda: fetch("http://127.0.0.1:${ports.unlisted}/unlisted"))
attempt("mapped", lambda: fetch("http://[::ffff:127.0.0.1]:${ports.listed}/mapped"))
attempt("private name", lambda: fetch("http://localhost:${ports.unlisted}/private-name"))
attempt("metadata", lambda: fetch("http://169.254.169.254/latest/meta-data/"))
attempt("direct", direct)
attempt("udp", udp)
attempt("dns lookup", lambda: socket.getaddrinfo("example.org", 443))
attempt("dns packet", dns_packet)
`;

describe("a jailed attacker with an allow-list", () => {
  let server: ServerHandle;
  beforeAll(async () => {
    server = await serve(["--set", "nixpkgs.enabled=false"]);
  }, 120_000);
  afterAll(async () => server?.close());

  it("gets nothing but the listed destination, each refusal said", async () => {
    const before = net.arrivals.length;
    const result = await server.call("run", { env: "net", code: attacks(net.ports) });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { stdout, network } = result.structuredContent as unknown as Output;
    const lines = Object.fromEntries(
      stdout
        .trim()
        .split("\n")
        .map((line) => line.split(/: (.*)/s).slice(0, 2) as [string, string]),
    );

    // Through the proxy: refused with 403, reported with the reason.
    for (const name of ["unlisted", "mapped", "private name", "metadata"])
      expect(lines[name], name).toMatch(/^refused \(HTTPError: HTTP Error 403: Forbidden\)/);
    expect(network?.allowed).toEqual([]);
    expect(network?.blocked).toEqual([
      { destination: `127.0.0.1:${net.ports.unlisted}`, reason: "not on the jail's network allow-list" },
      { destination: `[::ffff:7f00:1]:${net.ports.listed}`, reason: "not on the jail's network allow-list" },
      {
        destination: `localhost:${net.ports.unlisted}`,
        reason: expect.stringMatching(/^resolves to 127\.0\.0\.1 \(a loopback address\).*which is not listed/),
      },
      { destination: "169.254.169.254:80", reason: "not on the jail's network allow-list" },
      // Around the proxy, counted by the jail's kernel: the direct connection; the UDP packet, the DNS
      // lookup (A and AAAA, to the jail's own 127.0.0.1:53) and the DNS packet.
      {
        destination: "direct connection",
        reason: expect.stringMatching(/^1 refused: the jail reaches the network only through its proxy/),
      },
      { destination: "DNS or UDP", reason: expect.stringMatching(/^([4-9]|\d\d+) datagram\(s\) dropped: no DNS or UDP leaves the jail/) },
    ]);

    // Around the proxy: the jail's own network namespace has nothing but its loopback.
    expect(lines.direct).toMatch(/^refused \(ConnectionRefusedError/);
    expect(lines["dns lookup"]).toMatch(/^refused \(gaierror/);
    expect(lines["dns packet"]).toMatch(/^refused \((ConnectionRefusedError|TimeoutError)/);
    // A datagram to a closed port leaves no error to report; what counts is that it never arrives.
    expect(lines.udp).toBe("got sent");

    // The udp and dns listeners would have the datagrams by now: loopback delivers at once.
    expect(net.arrivals.slice(before)).toEqual([]);
  }, 60_000);
});

describe("a list from an untrusted project file", () => {
  it("is ignored: the package stays without network, and the server says so", async () => {
    const { source, index } = fixtureNixpkgs(scratch);
    writeFileSync(
      join(project, ".nixshed.toml"),
      `[nixpkgs]\nnetwork = ["127.0.0.1:${net.ports.listed}"]\n\n[nixpkgs.permissions.python3]\nnetwork = ["127.0.0.1:${net.ports.listed}"]\n`,
    );
    const server = await serve([
      "--set",
      `nixpkgs.source="${source}"`,
      "--set",
      `nixpkgs.index="${index}"`,
      "--set",
      `nixpkgs.nix_options=["--option", "substituters", ""]`,
      ...harnessMountsFlag(),
    ]);
    try {
      const before = net.arrivals.length;
      const result = await server.call("nixpkgs_execute", {
        package: "python3",
        args: ["-c", urllibFetch(`http://127.0.0.1:${net.ports.listed}/planted`)],
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      const output = result.structuredContent as unknown as Output;
      expect(output.stdout).toMatch(/urllib refused: .*Connection refused/);
      expect(output.network).toBeUndefined();
      expect(net.arrivals.slice(before)).toEqual([]);
      expect(server.stderr()).toMatch(/nixpkgs\.network/);
      expect(server.stderr()).toMatch(/nixpkgs\.permissions\.python3\.network/);
    } finally {
      await server.close();
    }
  }, 600_000);
});
