// The everyday set: the curated groups plus config nixpkgs.tools, minus what cannot work here (a
// package the index lacks, when the index is at hand; the network group unless packages get the
// network). nixpkgs_execute names it in its description; with common_tools = "tools" each package
// is also a tool of its own.
import type { Config } from "../../config/schema.js";
import { COMMON_GROUPS, type CommonGroup, type CommonTool } from "./common-tools.js";
import type { NixpkgsIndex } from "../index/index.js";

export interface EverydaySet {
  groups: { purpose: string; tools: CommonTool[] }[];
  /** Configured or curated attributes the index lacks (not offered). */
  missing: string[];
}

export function everydaySet(
  { common_tools: mode, tools }: Config["nixpkgs"],
  index: NixpkgsIndex | undefined,
  hasNetwork: (attr: string) => boolean,
): EverydaySet {
  if (mode === "off") return { groups: [], missing: [] };
  const curated = new Set(COMMON_GROUPS.flatMap((group) => group.tools.map((tool) => tool.attr)));
  const own: CommonGroup = { purpose: "configured", tools: tools.filter((attr) => !curated.has(attr)).map((attr) => ({ attr })) };
  const missing: string[] = [];
  const usable = (group: CommonGroup) => (tool: CommonTool) => {
    if (index && index.lookup(tool.attr) < 0) {
      missing.push(tool.attr);
      return false;
    }
    return !group.network || hasNetwork(tool.attr);
  };
  const groups = [...COMMON_GROUPS, own]
    .map((group) => ({ purpose: group.purpose, tools: group.tools.filter(usable(group)) }))
    .filter((group) => group.tools.length > 0);
  return { groups, missing };
}

/** "data: jq yq-go miller … · files: coreutils… …": attributes by purpose; "…" marks a package of several programs, of which a call names one. */
export function describeEveryday(set: EverydaySet): string {
  return set.groups
    .map((group) => `${group.purpose}: ${group.tools.map((tool) => `${tool.attr}${tool.several ? "…" : ""}`).join(" ")}`)
    .join(" · ");
}
