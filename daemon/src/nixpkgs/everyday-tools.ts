// The everyday package tools offered at startup (config nixpkgs.common_tools and nixpkgs.tools),
// minus the packages the index lacks when it is at hand (it is not built for this).
import type { Logger } from "../common/log.js";
import type { Config } from "../config/schema.js";
import { COMMON_TOOLS, type CommonTool } from "./common-tools.js";
import type { NixpkgsIndex } from "./index.js";
import type { NixpkgsToolSet } from "./tool-set.js";

/** The packages to offer: the curated list, config nixpkgs.tools, both or neither. */
function everydayPackages({ common_tools: mode, tools }: Config["nixpkgs"]): CommonTool[] {
  const own = tools.map((attr) => ({ attr }));
  if (mode === "off") return [];
  if (mode === "replace") return own;
  if (mode === "extend") return [...COMMON_TOOLS, ...own.filter((tool) => !COMMON_TOOLS.some((c) => c.attr === tool.attr))];
  return [...COMMON_TOOLS];
}

export function offerEverydayTools(tools: NixpkgsToolSet, settings: Config["nixpkgs"], index: NixpkgsIndex | undefined, log: Logger): void {
  const missing: string[] = [];
  for (const common of everydayPackages(settings)) {
    if (index && index.lookup(common.attr) < 0) {
      missing.push(common.attr);
      continue;
    }
    tools.addPackage({ name: tools.freeName(common.attr), attr: common.attr, program: common.program, common: true });
  }
  if (missing.length > 0) log.info(`nixpkgs: common tools not in the index, not offered: ${missing.join(", ")}`);
}
