// A network allow-list: the destinations a jail may reach through the egress proxy. An entry is a
// host name ("example.org"), every subdomain of one ("*.example.net") or an IP address
// ("127.0.0.1", "[::1]"), each with an optional port ("api.example.com:8443"); without a port every
// port of that host is allowed. The same words are checked by the config schema, and by
// nix/lib/validate.nix for environments.
import { isIP } from "node:net";
import { canonicalAddress } from "./addresses.js";

export interface Destination {
  /** The entry as written. */
  text: string;
  kind: "name" | "subdomains" | "address";
  /** Lowercase name, the domain under "*.", or the canonical address. */
  host: string;
  /** Undefined: any port. */
  port?: number;
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const EXAMPLES = 'e.g. "example.org", "*.example.net", "api.example.com:8443", "127.0.0.1:5432" or "[::1]:8080"';

function isName(host: string): boolean {
  return host.length <= 253 && host.split(".").every((label) => LABEL.test(label)) && !/^[0-9.]+$/.test(host);
}

/** Why `text` is not a destination, or undefined when it is one. */
export function destinationProblem(text: string): string | undefined {
  try {
    parseDestination(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Parses one allow-list entry; throws an Error saying what is wrong and what is allowed. */
export function parseDestination(text: string): Destination {
  const wrong = (why: string) => new Error(`network destination ${JSON.stringify(text)}: ${why} (${EXAMPLES})`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw wrong("write the host (and port), not a URL");
  if (text === "*" || text === "*.*") throw wrong("everything is not a destination; use network = true for the whole network");
  let host = text;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
    if (isIP(host) !== 6) throw wrong("only an IPv6 address goes in brackets");
  } else if (isIP(text) !== 6) {
    const withPort = /^(.*):(\d+)$/.exec(text);
    if (withPort) {
      host = withPort[1]!;
      port = Number(withPort[2]);
    }
  }
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) throw wrong("the port must be 1-65535");
  const address = canonicalAddress(host);
  if (address !== undefined) return { text, kind: "address", host: address, ...(port ? { port } : {}) };
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name.startsWith("*.")) {
    const domain = name.slice(2);
    if (!isName(domain) || !domain.includes(".")) throw wrong('a wildcard is "*." before a domain of at least two labels');
    return { text, kind: "subdomains", host: domain, ...(port ? { port } : {}) };
  }
  if (!isName(name)) throw wrong(name.includes("*") ? 'a wildcard may only be a leading "*."' : "not a host name or IP address");
  return { text, kind: "name", host: name, ...(port ? { port } : {}) };
}

/** A host as a request names it, in the form entries are kept in: lowercase, no trailing dot, canonical address. */
export function normalHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return canonicalAddress(bare) ?? bare.toLowerCase().replace(/\.$/, "");
}

export class AllowList {
  readonly entries: readonly Destination[];

  constructor(entries: readonly string[]) {
    this.entries = entries.map(parseDestination);
  }

  /** Whether the list names this host (normalised by normalHost) on this port. */
  allowsHost(host: string, port: number): boolean {
    const kind = isIP(host) ? "address" : undefined;
    return this.entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== port) return false;
      if (entry.kind === "subdomains") return kind === undefined && host.endsWith(`.${entry.host}`);
      return entry.host === host && (entry.kind === "address") === (kind === "address");
    });
  }

  /** Whether this exact address (canonical) is listed for this port: what lets a non-public address through. */
  listsAddress(address: string, port: number): boolean {
    return this.entries.some(
      (entry) => entry.kind === "address" && entry.host === address && (entry.port === undefined || entry.port === port),
    );
  }
}
