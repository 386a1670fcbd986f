// Registers the nixpkgs tools: nixpkgs_search, nixpkgs_execute, nixpkgs_install_tool,
// nixpkgs_uninstall_tool, nixpkgs_list_installed, and one small tool per everyday package
// (config nixpkgs.common_tools / nixpkgs.tools) and per installed package.
import type { Capability, ServerContext } from "../capability.js";
import { NixpkgsError } from "./errors.js";
import { offerEverydayTools } from "./everyday-tools.js";
import { PackageRunner } from "./execute.js";
import { executeTool } from "./execute-tool.js";
import { IndexProvider, indexSources, planIndex, type IndexPlan } from "./index-provider.js";
import { InstalledRegistry } from "./installed.js";
import { installTool, listInstalledTool, restoreInstalledTools, uninstallTool } from "./installed-tools.js";
import { packageTool } from "./package-tool.js";
import { searchTool } from "./search-tool.js";
import { NixpkgsToolSet } from "./tool-set.js";

/** Where the index comes from; a bad configuration leaves search without one rather than the server down. */
function safePlan(ctx: ServerContext): IndexPlan {
  try {
    return planIndex(indexSources(ctx.config.nixpkgs, ctx.discovery.nixpkgs, ctx.cacheDir));
  } catch (error) {
    if (error instanceof NixpkgsError) return { kind: "none", reason: error.message };
    throw error;
  }
}

export const nixpkgsCapability: Capability = {
  name: "nixpkgs",
  instructions:
    "nixpkgs_search finds any nixpkgs package; nixpkgs_execute runs one once in a jail (no install); nixpkgs_install_tool makes one a tool of its own. Every nixpkgs_<package> tool runs that package's program jailed: args as an array, project at /project.",
  async register(ctx) {
    const provider = new IndexProvider(safePlan(ctx), (message) => ctx.log.info(message));
    const runner = new PackageRunner({
      config: ctx.config,
      discovered: ctx.discovery.nixpkgs,
      projectRoot: ctx.projectRoot,
      cacheDir: ctx.cacheDir,
      // Execution needs the index too (to check the attribute), but does not wait for it to build.
      index: () => {
        try {
          return provider.get();
        } catch (error) {
          if (error instanceof NixpkgsError) return undefined;
          throw error;
        }
      },
    });
    const registry = new InstalledRegistry(ctx.stateDir, (message) => ctx.log.warn(message));
    const tools = new NixpkgsToolSet(ctx.mcp, ctx.log, (tool) => packageTool(tool, runner, provider.peek()));

    // The order is the tools/list order; everyday tools take their names before installed ones.
    tools.add(searchTool(provider));
    // Execution runs in a bubblewrap jail, which exists on Linux only: elsewhere, search alone.
    if (process.platform !== "linux") {
      ctx.log.info("nixpkgs: no bubblewrap on this platform, so only nixpkgs_search is offered");
      return { close: async () => provider.close() };
    }
    tools.add(executeTool(runner, tools, ctx.config.sandbox.max_stdin_bytes));
    offerEverydayTools(tools, ctx.config.nixpkgs, provider.peek(), ctx.log);
    restoreInstalledTools(tools, registry, ctx.log);
    tools.add(installTool(tools, registry, runner));
    tools.add(uninstallTool(tools, registry));
    tools.add(listInstalledTool(tools, registry));

    return { close: async () => provider.close() };
  },
};
