// Which IP addresses a jail may not reach by name: everything that is not the public internet
// (loopback, private, link-local, cloud metadata services, shared, multicast, reserved). IPv6 forms
// that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by the IPv4
// address inside, so `::ffff:127.0.0.1` is loopback. Only an exact listed address gets past this
// (./destinations.ts).
import { isIPv4, isIPv6 } from "node:net";

interface Range {
  bytes: number[];
  bits: number;
  kind: string;
}

const range = (prefix: number[], bits: number, kind: string): Range => ({ bytes: prefix, bits, kind });

// Metadata services first: they are link-local or private too, but the more specific name says more.
const IPV4_RANGES: Range[] = [
  range([169, 254, 169, 254], 32, "a cloud metadata service"),
  range([100, 100, 100, 200], 32, "a cloud metadata service"),
  range([0], 8, "an unspecified (this-network) address"),
  range([10], 8, "a private address"),
  range([100, 64], 10, "a shared (carrier-grade NAT) address"),
  range([127], 8, "a loopback address"),
  range([169, 254], 16, "a link-local address"),
  range([172, 16], 12, "a private address"),
  range([192, 0, 0], 24, "a reserved (IETF protocol) address"),
  range([192, 0, 2], 24, "a documentation address"),
  range([192, 88, 99], 24, "a reserved (6to4 relay) address"),
  range([192, 168], 16, "a private address"),
  range([198, 18], 15, "a benchmarking address"),
  range([198, 51, 100], 24, "a documentation address"),
  range([203, 0, 113], 24, "a documentation address"),
  range([224], 4, "a multicast address"),
  range([240], 4, "a reserved address"),
];

const IPV6_RANGES: Range[] = [
  range([0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, "a cloud metadata service"),
  range([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "a loopback address"),
  range([], 128, "an unspecified address"),
  range([0x01, 0x00], 64, "a discard-only address"),
  range([0x20, 0x01, 0x0d, 0xb8], 32, "a documentation address"),
  range([0x20, 0x01, 0x00, 0x00], 23, "a reserved (IETF protocol) address"),
  range([0xfc], 7, "a private (unique local) address"),
  range([0xfe, 0x80], 10, "a link-local address"),
  range([0xfe, 0xc0], 10, "a site-local address"),
  range([0xff], 8, "a multicast address"),
];

/** IPv6 prefixes whose address carries an IPv4 address, and where it sits. */
const EMBEDDING: { prefix: number[]; bits: number; at: number }[] = [
  { prefix: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], bits: 96, at: 12 }, // IPv4-mapped ::ffff:a.b.c.d
  { prefix: [], bits: 96, at: 12 }, // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks)
  { prefix: [0, 0x64, 0xff, 0x9b], bits: 96, at: 12 }, // NAT64 64:ff9b::a.b.c.d
  { prefix: [0, 0x64, 0xff, 0x9b, 0, 1], bits: 48, at: 12 }, // local-use NAT64 64:ff9b:1::/48
  { prefix: [0x20, 0x02], bits: 16, at: 2 }, // 6to4 2002:AABB:CCDD::
];

function matches(address: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if (((address[bit / 8] ?? 0) & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] {
  return address.split(".").map(Number);
}

/** The 16 bytes of an IPv6 address (valid by net.isIPv6), a trailing dotted IPv4 part included. */
function ipv6Bytes(address: string): number[] {
  let text = address.split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const words = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

/** The normal textual form of an IP address (lowercase, shortest IPv6), for comparing listed addresses. */
export function canonicalAddress(address: string): string | undefined {
  if (isIPv4(address)) return ipv4Bytes(address).join(".");
  if (!isIPv6(address)) return undefined;
  const bytes = ipv6Bytes(address);
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  // The longest run of two or more zero words becomes "::" (RFC 5952).
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && words[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = (list: number[]) => list.map((word) => word.toString(16)).join(":");
  if (best.start < 0) return hex(words);
  return `${hex(words.slice(0, best.start))}::${hex(words.slice(best.start + best.length))}`;
}

/** Why a jail may not reach this address unless it is listed exactly, or undefined for a public address. */
export function nonPublicKind(address: string): string | undefined {
  if (isIPv4(address)) {
    const bytes = ipv4Bytes(address);
    return IPV4_RANGES.find((r) => matches(bytes, r.bytes, r.bits))?.kind;
  }
  if (!isIPv6(address)) return "not an IP address";
  const bytes = ipv6Bytes(address);
  const own = IPV6_RANGES.find((r) => matches(bytes, r.bytes, r.bits))?.kind;
  if (own) return own;
  for (const embedding of EMBEDDING) {
    if (!matches(bytes, embedding.prefix, embedding.bits)) continue;
    const inner = bytes.slice(embedding.at, embedding.at + 4).join(".");
    const kind = nonPublicKind(inner);
    if (kind) return `${kind} (${inner} inside an IPv6 address)`;
  }
  return undefined;
}
