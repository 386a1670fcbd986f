// The `network` setting wherever it is accepted (an environment's metadata, nixpkgs.network,
// nixpkgs.permissions.<attr>.network, [environments.NAME]): false, true, or a list of destinations
// (./destinations.ts) reached through the egress proxy. An empty list is no network.
import { z } from "zod";
import { destinationProblem } from "./destinations.js";

const destination = z.string().superRefine((text, context) => {
  const problem = destinationProblem(text);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

export const networkSchema = z.union([z.boolean(), z.array(destination)]);

export type NetworkSetting = z.infer<typeof networkSchema>;

/** The destinations of a setting that proxies, or undefined for none or the whole network. */
export function allowListOf(setting: NetworkSetting): string[] | undefined {
  return Array.isArray(setting) && setting.length > 0 ? setting : undefined;
}

/** Whether a jail with this setting reaches anything outside itself. */
export const reachesOut = (setting: NetworkSetting): boolean => setting === true || allowListOf(setting) !== undefined;

/** In a few words: "offline", "network", or "network to example.org *.example.net (+3 more)". */
export function describeNetwork(setting: NetworkSetting, shown = 4): string {
  const list = allowListOf(setting);
  if (!list) return setting === true ? "network" : "offline";
  const more = list.length > shown ? ` (+${list.length - shown} more)` : "";
  return `network to ${list.slice(0, shown).join(" ")}${more}`;
}
