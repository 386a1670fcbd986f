// A jail's side of the egress proxy: opened for a jail whose network is an allow-list (by
// ../jail.ts's prepareJail), its socket given to bin/run (NIXSHED_JAIL_EGRESS_SOCKET), closed when
// the jail ends; what it decided during one call becomes that call's report.
import type { Logger } from "../../log.js";
import { AllowList } from "../../config/destinations.js";
import { EgressProxy } from "./proxy.js";
import { summarise, type EgressReport } from "./report.js";
import { allowListOf, type NetworkSetting } from "../../config/network.js";

/** The variable bin/run reads the proxy's socket from (nix/backends/jail.bash). */
export const EGRESS_SOCKET_VARIABLE = "NIXSHED_JAIL_EGRESS_SOCKET";

/** The proxy for a jail with this network, or undefined when it has none or the whole network. */
export function openEgress(network: NetworkSetting | undefined, log?: Logger, label?: string): EgressProxy | undefined {
  const list = network === undefined ? undefined : allowListOf(network);
  return list ? EgressProxy.open({ allow: new AllowList(list), log, label }) : undefined;
}

/** Where the decisions of one call start. */
export const egressMark = (proxy: EgressProxy | undefined): number => proxy?.decisions.length ?? 0;

/** The `network` field of a result: what the proxy decided since `mark`, when it decided anything. */
export function egressSince(proxy: EgressProxy | undefined, mark = 0): { network?: EgressReport } {
  const report = proxy && summarise(proxy.decisions.slice(mark));
  return report ? { network: report } : {};
}
