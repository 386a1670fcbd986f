// What a jail's network did, as the agent reads it in a tool result: the destinations the proxy
// let through and those it refused with the reason, each once, in the order first seen.
import { z } from "zod";

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
  .describe("The jail's network allow-list at work (HTTP(S) through the proxy; direct connections, UDP and DNS never leave the jail)");

export type EgressReport = z.infer<typeof egressReportShape>;

/** The decisions summarised; undefined when the program made no connection through the proxy. */
export function summarise(decisions: readonly EgressDecision[]): EgressReport | undefined {
  if (decisions.length === 0) return undefined;
  const allowed = new Set<string>();
  const blocked = new Map<string, string>();
  for (const decision of decisions) {
    if (decision.allowed && decision.reason === undefined) allowed.add(decision.destination);
    else if (!blocked.has(decision.destination)) blocked.set(decision.destination, decision.reason ?? "refused");
  }
  return { allowed: [...allowed], blocked: [...blocked].map(([destination, reason]) => ({ destination, reason })) };
}
