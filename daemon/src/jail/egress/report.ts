// What a jail's network did, as the agent reads it in a tool result: the destinations the proxy
// let through and those it refused with the reason, each once, in the order first seen; then the
// ways around the proxy that the jail's kernel refused (./counters.ts), by kind and count.
import { z } from "zod";
import type { Counts } from "./counters.js";

export interface EgressDecision {
  /** host:port as the program asked for it. */
  destination: string;
  allowed: boolean;
  /** Why it was refused, or why an allowed connection failed. */
  reason?: string;
}

export const egressReportShape = z
  .object({
    allowed: z.array(z.string()).describe("Destinations (host:port) the proxy connected to"),
    blocked: z.array(z.object({ destination: z.string(), reason: z.string() })).describe("Destinations refused, and why"),
  })
  .describe("The jail's network allow-list at work: HTTP(S) goes through its proxy; direct connections, UDP and DNS are refused");

export type EgressReport = z.infer<typeof egressReportShape>;

/** The ways around the proxy, as blocked entries: what the program tried, and what to do instead. */
const AROUND_THE_PROXY: { count: keyof Counts; destination: string; reason: (n: number) => string }[] = [
  {
    count: "refused",
    destination: "direct connection",
    reason: (n) => `${n} refused: the jail reaches the network only through its proxy (HTTP_PROXY, HTTPS_PROXY)`,
  },
  {
    count: "datagrams",
    destination: "DNS or UDP",
    reason: (n) => `${n} datagram(s) dropped: no DNS or UDP leaves the jail (the proxy resolves names)`,
  },
  {
    count: "noRoute",
    destination: "direct to an address",
    reason: (n) => `${n} refused: no route out of the jail but its proxy (HTTP_PROXY, HTTPS_PROXY)`,
  },
];

/** The decisions and counts summarised; undefined when the program used no network at all. */
export function summarise(decisions: readonly EgressDecision[], counts?: Counts): EgressReport | undefined {
  const around = AROUND_THE_PROXY.filter(({ count }) => (counts?.[count] ?? 0) > 0).map(({ count, destination, reason }) => ({
    destination,
    reason: reason(counts![count]),
  }));
  if (decisions.length === 0 && around.length === 0) return undefined;
  const allowed = new Set<string>();
  const blocked = new Map<string, string>();
  for (const decision of decisions) {
    if (decision.allowed && decision.reason === undefined) allowed.add(decision.destination);
    else if (!blocked.has(decision.destination)) blocked.set(decision.destination, decision.reason ?? "refused");
  }
  return { allowed: [...allowed], blocked: [...[...blocked].map(([destination, reason]) => ({ destination, reason })), ...around] };
}
