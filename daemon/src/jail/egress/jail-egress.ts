// A jail's side of the egress proxy: opened for a jail whose network is an allow-list (by
// ../jail.ts's prepareJail), its socket given to bin/run (NIXSHED_JAIL_EGRESS_SOCKET), closed when
// the jail ends; what it decided during one call becomes that call's report.
import type { Logger } from "../../log.js";
import { AllowList } from "../../config/destinations.js";
import { EgressProxy } from "./proxy.js";
import { summarise, type EgressReport } from "./report.js";
import { type Counts, countsSince, NO_COUNTS } from "./counters.js";
import { allowListOf, type NetworkSetting } from "../../config/network.js";

/** The variable bin/run reads the proxy's socket from (nix/backends/jail.bash). */
export const EGRESS_SOCKET_VARIABLE = "NIXSHED_JAIL_EGRESS_SOCKET";

/** The proxy for a jail with this network, or undefined when it has none or the whole network. */
export function openEgress(network: NetworkSetting | undefined, log?: Logger, label?: string): EgressProxy | undefined {
  const list = network === undefined ? undefined : allowListOf(network);
  return list ? EgressProxy.open({ allow: new AllowList(list), log, label }) : undefined;
}

/** Where one call starts: the proxy's decisions and the jail's counts so far. */
export interface EgressMark {
  decisions: number;
  counts: Counts;
}

export const egressMark = (proxy: EgressProxy | undefined): EgressMark => ({
  decisions: proxy?.decisions.length ?? 0,
  counts: proxy?.counters.latest ?? NO_COUNTS,
});

/**
 * The `network` field of a result: what the proxy decided and the jail counted since `mark`, when
 * anything. A run's jail has sent its counts by the time it ended; a session's is asked first.
 */
export async function egressSince(
  proxy: EgressProxy | undefined,
  mark: EgressMark = { decisions: 0, counts: NO_COUNTS },
): Promise<{ network?: EgressReport }> {
  if (!proxy) return {};
  await proxy.counters.refresh();
  const report = summarise(proxy.decisions.slice(mark.decisions), countsSince(mark.counts, proxy.counters.latest));
  return report ? { network: report } : {};
}
