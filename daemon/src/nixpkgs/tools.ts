// Registers the nixpkgs tools that can work here: nixpkgs_search where there is an index (or one to
// build), and where packages can be realised (a nixpkgs, nixshed's Nix library, bubblewrap)
// nixpkgs_execute, whose description names the everyday packages, nixpkgs_install_tool,
// nixpkgs_uninstall_tool, nixpkgs_list_installed and one tool per installed package (and per
// everyday package with nixpkgs.common_tools = "tools"). When the index becomes ready the everyday
// set is checked against it, and when the nixpkgs comes or goes the execution tools follow: each
// time the list changes (clients hear list_changed).
import { markToolsOff } from "../mcp/tool-calls.js";
import type { Capability, ServerContext } from "../capability.js";
import { reachesOut } from "../config/network.js";
import type { Logger } from "../log.js";
import type { Config } from "../config/schema.js";
import { NixpkgsError } from "./errors.js";
import { describeEveryday, everydaySet } from "./tools/everyday-tools.js";
import { PackageRunner } from "./execute/execute.js";
import { EXECUTE, executeDescription, executeTool, type PackagePermissions } from "./execute/execute-tool.js";
import type { NixpkgsIndex } from "./index/index.js";
import { IndexProvider, indexSources, planIndex, type IndexPlan } from "./index/provider.js";
import { InstalledRegistry } from "./tools/installed.js";
import { installTool, listInstalledTool, restoreInstalledTools, uninstallTool } from "./tools/installed-tools.js";
import { packageTool } from "./tools/package-tool.js";
import { searchTool } from "./search/search-tool.js";
import { NixpkgsToolSet } from "./tools/tool-set.js";

/** How often the nixpkgs (and Nix library) is looked for again: one that was missing may come, one that was there may go. */
const RECHECK_MS = 2000;

/** Where the index comes from; a bad configuration leaves search without one rather than the server down. */
function safePlan(ctx: ServerContext): IndexPlan {
  try {
    return planIndex(indexSources(ctx.config.nixpkgs, ctx.discovery.nixpkgs, ctx.cacheDir));
  } catch (error) {
    if (error instanceof NixpkgsError) return { kind: "none", reason: error.message };
    throw error;
  }
}

/** The defaults, then each package nixpkgs.permissions names, as the jail policy decides them. */
function packagePermissions(runner: PackageRunner, settings: Config["nixpkgs"]): PackagePermissions {
  return {
    defaults: runner.permissions(""),
    configured: Object.keys(settings.permissions).map((attr) => [attr, runner.permissions(attr)]),
  };
}

/**
 * Brings nixpkgs_execute's description, and with common_tools = "tools" the everyday package
 * tools, in line with the everyday set that works here (checked against the index once it is at hand).
 */
function offerEveryday(
  tools: NixpkgsToolSet,
  runner: PackageRunner,
  settings: Config["nixpkgs"],
  index: NixpkgsIndex | undefined,
  log: Logger,
): void {
  const set = everydaySet(settings, index, (attr) => reachesOut(runner.permissions(attr).network));
  if (set.missing.length > 0) log.info(`nixpkgs: everyday packages not in the index, not offered: ${set.missing.join(", ")}`);
  tools.describe(EXECUTE, executeDescription(describeEveryday(set), packagePermissions(runner, settings)));
  if (settings.common_tools !== "tools") return;
  const wanted = new Set(set.groups.flatMap((group) => group.tools.map((tool) => tool.attr)));
  for (const tool of tools.packageTools()) if (tool.common && !wanted.has(tool.attr)) tools.removePackage(tool.name);
  const offered = new Set(
    tools
      .packageTools()
      .filter((tool) => tool.common)
      .map((tool) => tool.attr),
  );
  for (const tool of set.groups.flatMap((group) => group.tools)) {
    if (offered.has(tool.attr)) continue;
    // A package of several programs gets none by default: a call names the one it wants.
    tools.addPackage({
      name: tools.freeName(tool.attr),
      attr: tool.attr,
      ...(tool.several ? { several: true } : tool.program ? { program: tool.program } : {}),
      common: true,
    });
  }
}

export const nixpkgsCapability: Capability = {
  name: "nixpkgs",
  tools: ["nixpkgs_search", "nixpkgs_execute", "nixpkgs_install_tool", "nixpkgs_list_installed", "nixpkgs_uninstall_tool"],
  instructions:
    "nixpkgs_search finds any nixpkgs package; nixpkgs_execute runs one once in a jail (no install; it names the everyday ones); nixpkgs_install_tool makes one a tool of its own.",
  async register(ctx) {
    let plan = safePlan(ctx);
    let provider = new IndexProvider(plan, (message) => ctx.log.info(message));
    const runner = new PackageRunner({
      config: ctx.config,
      discovered: ctx.discovery.nixpkgs,
      projectRoot: ctx.projectRoot,
      cacheDir: ctx.cacheDir,
      warn: (message) => ctx.log.warn(message),
      budget: ctx.jails,
      // Execution needs the index too (to check the attribute), but does not wait for it to build.
      index: () => {
        try {
          return provider.get();
        } catch (error) {
          if (error instanceof NixpkgsError) return undefined;
          throw error;
        }
      },
      debug: (message) => ctx.log.debug(message),
      log: ctx.log,
      spooler: ctx.results && ((tool) => ctx.results!.spooler(tool)),
    });
    const settings = ctx.config.nixpkgs;
    const tools = new NixpkgsToolSet(ctx.mcp, ctx.log, (tool) => packageTool(tool, runner, runner.permissions(tool.attr), provider.peek()));
    const close = { close: async () => provider.close() };

    // The order is the tools/list order; everyday tools take their names before installed ones.
    if (plan.kind !== "none") tools.add(searchTool(provider));
    else {
      ctx.log.info(`nixpkgs: ${plan.reason}, so nixpkgs_search is not offered`);
      markToolsOff(ctx.mcp, ["nixpkgs_search"], plan.reason);
    }
    // Execution runs in a bubblewrap jail, which exists on Linux only, and needs a nixpkgs to realise from.
    const offerExecution = () => {
      tools.add(executeTool(runner, tools, ctx.config.sandbox.max_stdin_bytes, "", packagePermissions(runner, settings)));
      const index = provider.peek();
      offerEveryday(tools, runner, settings, index, ctx.log);
      if (!index) provider.onReady((ready) => offerEveryday(tools, runner, settings, ready, ctx.log));
      const registry = new InstalledRegistry(ctx.stateDir, (message) => ctx.log.warn(message));
      restoreInstalledTools(tools, registry, ctx.log);
      tools.add(installTool(tools, registry, runner));
      tools.add(uninstallTool(tools, registry));
      tools.add(listInstalledTool(tools));
    };
    // What is missing may yet come (a nixpkgs checkout still being cloned), and what is there may go (a
    // checkout removed): the tools follow either way, with list_changed. A listed tool is no longer "off"
    // (tool-calls.ts asks the registry first).
    let offered = false;
    let missing: string | undefined;
    const linux = process.platform === "linux";
    const follow = () => {
      const now = linux ? runner.unavailable() : "no bubblewrap on this platform";
      // Listed: offered, and nothing missing since.
      const listed = offered && missing === undefined;
      if (now === undefined ? listed : now === missing) return;
      if (now) {
        const hidden = listed ? tools.setListed(false, ["nixpkgs_search"]) : [];
        const off = nixpkgsCapability.tools.filter((name) => name !== "nixpkgs_search" && !tools.has(name));
        markToolsOff(ctx.mcp, [...off, ...hidden], now);
        ctx.log.info(`nixpkgs: ${now}, so ${tools.has("nixpkgs_search") ? "only nixpkgs_search is" : "no nixpkgs tool is"} offered`);
      } else {
        if (missing) ctx.log.info(`nixpkgs: packages can be realised now (before: ${missing}); nixpkgs_execute is offered`);
        if (offered) tools.setListed(true, []);
        else {
          // A nixpkgs checkout is also what an index can be built from.
          if (plan.kind === "none") {
            plan = safePlan(ctx);
            if (plan.kind !== "none") {
              provider = new IndexProvider(plan, (message) => ctx.log.info(message));
              tools.add(searchTool(provider));
            }
          }
          offerExecution();
          offered = true;
        }
      }
      missing = now;
    };
    follow();
    if (!linux) return close;
    const recheck = setInterval(follow, RECHECK_MS).unref();
    return {
      close: async () => {
        clearInterval(recheck);
        await close.close();
      },
    };
  },
};
